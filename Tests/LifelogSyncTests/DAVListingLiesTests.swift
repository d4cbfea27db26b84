import LifelogCore
import LifelogProtocol
import LifelogSync
import LifelogTestSupport
import Synchronization
import Testing

/// ``DAVRemote`` against a fake WebDAV server whose listings lie the way broken servers do: a
/// folder ETag that never changes, one file listed many times.
@Suite struct DAVListingLiesTests {
  /// The files of the fake server (paths under `/dav/lifelog/`) and what it says of every folder.
  struct Files {
    var files: [String: [UInt8]] = [:]
    /// The ETag of every collection: the same whatever it holds.
    var etag = #""constant""#
    var modified = "Mon, 30 Nov 2026 10:00:00 GMT"
    /// How many times each file is listed.
    var repeats = 1
    /// Files listed that a GET does not find.
    var ghosts: Set<String> = []
    /// The server's clock (`Date`), when it tells it: an hour after every change.
    var date: String? = "Mon, 30 Nov 2026 11:00:00 GMT"
  }

  /// The files, shared by the test and the server's threads.
  final class Shared: Sendable {
    let files = Mutex(Files())
  }

  static func batch(device: String, seq: Int) -> [UInt8] {
    BatchCodec.encode(
      Batch(
        device: device, seq: seq, created: 1,
        changes: [
          RowChange(
            entity: .setting, id: "name", values: [.text("x\(seq)")], stamps: FieldStamps(count: 1))
        ]))
  }

  static func entry(_ href: String, collection: Bool, _ state: Files) -> String {
    "<d:response><d:href>\(href)</d:href><d:propstat><d:prop>"
      + "<d:resourcetype>\(collection ? "<d:collection/>" : "")</d:resourcetype>"
      + "<d:getetag>\(state.etag)</d:getetag>"
      + "<d:getlastmodified>\(state.modified)</d:getlastmodified>"
      + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
  }

  /// Answers PROPFIND (Depth 1) and GET from `files`.
  static func server(_ shared: Shared) throws -> LoopbackServer {
    try LoopbackServer { request in
      let root = "/dav/lifelog/"
      guard request.target.hasPrefix(root) else {
        return LoopbackServer.response(status: "404 Not Found", body: [])
      }
      let path = String(request.target.dropFirst(root.count))
      let state = shared.files.withLock { $0 }
      switch request.method {
      case "GET":
        guard let bytes = state.files[path], !state.ghosts.contains(path) else {
          return LoopbackServer.response(status: "404 Not Found", body: [])
        }
        return LoopbackServer.response(status: "200 OK", body: bytes)
      case "PROPFIND":
        let folder = path.hasSuffix("/") ? path : path + "/"
        var members = Set<String>()
        var isFile = Set<String>()
        for name in state.files.keys where name.hasPrefix(folder) {
          let rest = name.dropFirst(folder.count)
          let first = String(rest.prefix { $0 != "/" })
          members.insert(first)
          if first.count == rest.count { isFile.insert(first) }
        }
        guard !members.isEmpty else {
          return LoopbackServer.response(status: "404 Not Found", body: [])
        }
        var body = #"<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">"#
        body += entry(root + folder, collection: true, state)
        for member in members.sorted() {
          for _ in 0..<(isFile.contains(member) ? state.repeats : 1) {
            body += entry(
              root + folder + member + (isFile.contains(member) ? "" : "/"),
              collection: !isFile.contains(member), state)
          }
        }
        body += "</d:multistatus>"
        let head =
          "HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml\r\n"
          + (state.date.map { "Date: \($0)\r\n" } ?? "")
          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return Array((head + body).utf8)
      default:
        return LoopbackServer.response(status: "405 Method Not Allowed", body: [])
      }
    }
  }

  func remote(_ server: LoopbackServer) throws -> DAVRemote {
    try DAVRemote(
      url: "dav://127.0.0.1:\(server.port)/dav/lifelog", user: "alice", password: "secret",
      deadline: LogStore.systemMilliseconds() + 20_000)
  }

  @Test func aFolderETagThatNeverChangesDoesNotHideANewBatchWhenItsTimeMoves() throws {
    let shared = Shared()
    shared.files.withLock {
      $0.files["devices/d2/0000000001.batch"] = DAVListingLiesTests.batch(device: "d2", seq: 1)
    }
    let server = try DAVListingLiesTests.server(shared)
    let first = try remote(server).pull(after: "", excluding: "d1", rowLimit: 1000)
    #expect(first.batches.map { $0.batch.seq } == [1])

    shared.files.withLock {
      $0.files["devices/d2/0000000002.batch"] = DAVListingLiesTests.batch(device: "d2", seq: 2)
      $0.modified = "Mon, 30 Nov 2026 10:00:05 GMT"  // the ETag stays "constant"
    }
    let second = try remote(server).pull(after: first.cursor, excluding: "d1", rowLimit: 1000)
    #expect(second.batches.map { $0.batch.seq } == [2])
  }

  @Test func aFileListedManyTimesCountsOnce() throws {
    let shared = Shared()
    shared.files.withLock {
      $0.files["devices/d1/0000000001.batch"] = DAVListingLiesTests.batch(device: "d1", seq: 1)
      $0.files["devices/d1/junk.batch"] = [0x78]
      $0.repeats = SyncEngine.compactionThreshold + 1
    }
    let server = try DAVListingLiesTests.server(shared)
    let remote = try remote(server)
    _ = try remote.pull(after: "", excluding: "d1", rowLimit: 1000)
    #expect(try remote.batchCount(device: "d1") == 1)
    // Without the pull's listing to answer from.
    #expect(try self.remote(server).batchCount(device: "d1") == 1)
  }

  @Test func aBatchListedButNotFoundHoldsItsDeviceUntilItIsThere() throws {
    let shared = Shared()
    shared.files.withLock {
      for seq in 1...2 {
        $0.files["devices/d2/000000000\(seq).batch"] = DAVListingLiesTests.batch(
          device: "d2", seq: seq)
      }
      $0.ghosts = ["devices/d2/0000000001.batch"]
    }
    let server = try DAVListingLiesTests.server(shared)
    let first = try remote(server).pull(after: "", excluding: "d1", rowLimit: 1000)
    #expect(first.batches.isEmpty)
    shared.files.withLock { $0.ghosts = [] }  // the listing did not change: same ETag and time
    let second = try remote(server).pull(after: first.cursor, excluding: "d1", rowLimit: 1000)
    #expect(second.batches.map { $0.batch.seq } == [1, 2])
  }

  @Test func withoutTheServersClockAFolderChangedInTheSameTickIsListedAgain() throws {
    let shared = Shared()
    shared.files.withLock {
      $0.files["devices/d2/0000000001.batch"] = DAVListingLiesTests.batch(device: "d2", seq: 1)
      $0.date = nil
    }
    let server = try DAVListingLiesTests.server(shared)
    let first = try remote(server).pull(after: "", excluding: "d1", rowLimit: 1000)
    #expect(first.batches.map { $0.batch.seq } == [1])
    shared.files.withLock {
      // Within the same second: neither the ETag (made of the time) nor the time moves.
      $0.files["devices/d2/0000000002.batch"] = DAVListingLiesTests.batch(device: "d2", seq: 2)
    }
    let second = try remote(server).pull(after: first.cursor, excluding: "d1", rowLimit: 1000)
    #expect(second.batches.map { $0.batch.seq } == [2])
  }

  @Test func hrefsThatLeadElsewhereNeverTakeARequestOutOfTheRemote() throws {
    let hrefs = [
      "/dav/lifelog/devices/../../../etc/", "http://evil.example/elsewhere/d9/",
      "/dav/lifelog/devices/%2e%2e/", "/dav/lifelog/devices/a%2F..%2F..%2Fsecret/",
      "/dav/lifelog/devices/%00/", "/dav/lifelog/devices/d%0A2/", "//evil.example/d8/",
    ]
    let server = try LoopbackServer { request in
      guard request.method == "PROPFIND", request.target == "/dav/lifelog/devices" else {
        return LoopbackServer.response(status: "404 Not Found", body: [])
      }
      let body =
        #"<d:multistatus xmlns:d="DAV:">"#
        + hrefs.map {
          "<d:response><d:href>\($0)</d:href><d:propstat><d:prop><d:resourcetype><d:collection/>"
            + "</d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>"
            + "</d:response>"
        }.joined() + "</d:multistatus>"
      return LoopbackServer.response(status: "207 Multi-Status", body: Array(body.utf8))
    }
    let page = try remote(server).pull(after: "", excluding: "d1", rowLimit: 1000)
    #expect(page.batches.isEmpty)
    for line in server.requests {
      #expect(line.hasPrefix("PROPFIND /dav/lifelog/devices"), "\(line)")
      #expect(!line.contains("..") && !line.contains("%") && !line.contains("evil"), "\(line)")
    }
  }
}
