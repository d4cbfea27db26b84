import Testing

@testable import LifelogSync

/// The reader of WebDAV `PROPFIND` answers: what Apache and rclone send, and what a hostile
/// server might.
@Suite struct DAVMultistatusTests {
  @Test func readsApachesAnswer() throws {
    let body = """
      <?xml version="1.0" encoding="utf-8"?>
      <D:multistatus xmlns:D="DAV:">
      <D:response xmlns:lp1="DAV:" xmlns:lp2="http://apache.org/dav/props/">
      <D:href>/r/</D:href>
      <D:propstat><D:prop>
      <lp1:resourcetype><D:collection/></lp1:resourcetype>
      <lp1:getlastmodified>Fri, 04 Dec 2026 14:06:39 GMT</lp1:getlastmodified>
      <lp1:getetag>W/"1000-661cf6286cf80"</lp1:getetag>
      </D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>
      <D:propstat><D:prop><D:getcontentlength/></D:prop>
      <D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>
      </D:response>
      <D:response><D:href>/r/a%20b&amp;c.batch</D:href>
      <D:propstat><D:prop><lp1:resourcetype/><lp1:getcontentlength>3</lp1:getcontentlength>
      <lp1:getetag>"3-661cf6286cf80"</lp1:getetag></D:prop>
      <D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
      </D:multistatus>
      """
    let entries = try DAVMultistatus.parse(Array(body.utf8))
    #expect(entries.count == 2)
    #expect(entries[0].isCollection && entries[0].etag == #"W/"1000-661cf6286cf80""#)
    #expect(entries[0].lastModified == 1_796_393_199)
    #expect(entries[0].length == nil, "a property in a 404 propstat is not read")
    #expect(!entries[1].isCollection && entries[1].length == 3)
    #expect(entries[1].name == "a b&c.batch")
  }

  @Test func readsRclonesAnswerWithFullURLsAndNoFolderETag() throws {
    let body =
      #"<?xml version="1.0" encoding="UTF-8"?><D:multistatus xmlns:D="DAV:"><D:response>"#
      + #"<D:href>http://127.0.0.1:9/r/</D:href><D:propstat><D:prop><D:resourcetype>"#
      + #"<D:collection xmlns:D="DAV:"/></D:resourcetype></D:prop>"#
      + #"<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>"#
    let entries = try DAVMultistatus.parse(Array(body.utf8))
    #expect(entries.count == 1 && entries[0].isCollection && entries[0].etag == nil)
    #expect(DAVMultistatus.decodedPath(entries[0].href) == "/r/")
  }

  @Test(arguments: [
    "", "<html>not dav</html>", "<D:multistatus xmlns:D=\"DAV:\"><D:response>",
    "<a:multistatus><a:response></a:href></a:multistatus>",
    "<multistatus><response><href>&bogus;</href></response></multistatus>",
    "<multistatus><!-- never closed",
    "<multistatus>" + String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
      + "</multistatus>",
    "<multistatus></multistatus><multistatus></multistatus>",
    // Hostile: a declared entity, character references that are no character, a huge one.
    "<!DOCTYPE m [<!ENTITY big \"aaaaaaaa\">]><multistatus><response><href>&big;</href>"
      + "</response></multistatus>",
    "<multistatus><response><href>&#xD800;</href></response></multistatus>",
    "<multistatus><response><href>&#x110000;</href></response></multistatus>",
    "<multistatus><response><href>&#99999999999;</href></response></multistatus>",
  ])
  func refusesWhatIsNotAMultistatus(_ body: String) {
    #expect(throws: DAVMultistatus.ParseError.self) { try DAVMultistatus.parse(Array(body.utf8)) }
  }

  @Test func sizesThatAreNoSizeAreDropped() throws {
    for length in ["-5", "99999999999999999999", "1e3", "0x10", " "] {
      let body =
        "<multistatus><response><href>/r/a</href><propstat><prop><getcontentlength>\(length)"
        + "</getcontentlength><getlastmodified>Sun, 31 Dec 99999 23:59:59 GMT</getlastmodified>"
        + "</prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>"
      let entries = try DAVMultistatus.parse(Array(body.utf8))
      #expect(entries.count == 1 && entries[0].length == nil && entries[0].lastModified == nil)
    }
  }

  @Test func theCursorKeepsOnlyWhatReads() {
    var state = DAVPullState(parsing: #"{"a":3}"#)
    #expect(state.vector["a"] == 3 && state.devices.isEmpty, "a folder remote's plain vector")
    state.devices["b"] = #""etag""#
    state.own = "o"
    state.ownCount = 7
    #expect(DAVPullState(parsing: state.encoded) == state)
    let hostile = DAVPullState(
      parsing: #"{"v":{"a":1},"d":{"../x":"e","b":""},"o":"o","n":-1}"#)
    #expect(hostile.devices.isEmpty && hostile.own == nil && hostile.vector["a"] == 1)
  }

  @Test func addressesAreCheckedAndSplit() throws {
    #expect(
      try DAVRemote.split("davs://cloud.example.org/remote.php/dav/files/alice/lifelog/")
        == ("https://cloud.example.org", "/remote.php/dav/files/alice/lifelog"))
    #expect(try DAVRemote.split("dav://10.0.0.2:8080/x") == ("http://10.0.0.2:8080", "/x"))
    for bad in [
      "davs://", "davs://host/a b", "davs://alice@host/x", "davs://host/x?y", "davs://host/../x",
      "https://host/x",
    ] {
      #expect(throws: (any Error).self, "\(bad)") { try DAVRemote.split(bad) }
    }
    #expect(Base64.encode(Array("alice:open sesame".utf8)) == "YWxpY2U6b3BlbiBzZXNhbWU=")
    #expect(Base64.encode(Array("ab".utf8)) == "YWI=")
  }
}
