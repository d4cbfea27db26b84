import LifelogCore
import LifelogSync
import Testing

/// The bounds of the HTTP answer parser: whatever bytes a server sends, an answer or a thrown
/// error, never a trap and never more memory than the limits.
@Suite struct HTTPResponseParserTests {
  let limits = HTTPResponseParser.Limits(
    maxBodyBytes: 1000, maxHeadBytes: 600, maxLineBytes: 200, maxHeaderCount: 8)

  func parse(_ text: String) throws(HTTPResponseError) -> HTTPResponseParser.Response {
    try HTTPResponseParser.parse(Array(text.utf8), limits: limits)
  }

  func error(_ text: String) -> HTTPResponseError? {
    do {
      _ = try parse(text)
      return nil
    } catch {
      return error
    }
  }

  @Test func aWellFormedAnswerIsReadByLengthByChunksOrToTheEnd() throws {
    let sized = try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloIGNORED")
    #expect(sized == .init(status: 200, body: Array("hello".utf8)))
    let chunked = try parse(
      "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\nB\r\n 0123456789\r\n0\r\nT: 1\r\n\r\n"
    )
    #expect(chunked.status == 201 && chunked.body == Array("hello 0123456789".utf8))
    let toTheEnd = try parse("HTTP/1.0 404 Not Found\nServer: x\n\nnot here")
    #expect(toTheEnd.status == 404 && toTheEnd.body == Array("not here".utf8))
    let interim = try parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")
    #expect(interim.status == 204 && interim.body.isEmpty)
  }

  @Test func bytesFedOneAtATimeGiveTheSameAnswer() throws {
    let text =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nRetry-After: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
    var parser = HTTPResponseParser(limits: limits)
    for byte in text.utf8 {
      #expect(!parser.isComplete)
      try parser.consume([byte][...])
    }
    #expect(parser.isComplete)
    #expect(
      try parser.finish() == .init(status: 200, body: Array("abc".utf8), retryAfter: .seconds(3)))
  }

  @Test func contentLengthsThatAreNegativeHugeOrTwoAreRefused() {
    #expect(error("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nx")?.kind == .malformed)
    #expect(error("HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello")?.kind == .malformed)
    #expect(error("HTTP/1.1 200 OK\r\nContent-Length: 1001\r\n\r\n")?.kind == .tooLarge)
    #expect(
      error("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999999\r\n\r\n")?.kind
        == .tooLarge)
    #expect(
      error("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd")?.kind
        == .malformed)
    #expect(error("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")?.kind == .cutShort)
  }

  @Test func chunkSizesThatAreNegativeOverflowOrAreCutOffAreRefused() {
    let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    #expect(error(head + "-5\r\nhello\r\n0\r\n\r\n")?.kind == .malformed)
    #expect(error(head + "ffffffffffffffffffff\r\nx\r\n0\r\n\r\n")?.kind == .tooLarge)
    #expect(error(head + "7fffffffffffffff\r\nx\r\n")?.kind == .tooLarge)
    #expect(error(head + "3e9\r\n")?.kind == .tooLarge)  // 1001 bytes
    #expect(error(head + "\r\nabc\r\n")?.kind == .malformed)
    #expect(error(head + "5\r\nabc")?.kind == .cutShort)
    #expect(error(head + "3\r\nabcdef\r\n0\r\n\r\n")?.kind == .malformed)
    #expect(error(head + "3\r\nabc\r\n")?.kind == .cutShort)
    // Many small chunks add up to the limit like one big one.
    #expect(
      error(
        head + String(repeating: "64\r\n" + String(repeating: "x", count: 100) + "\r\n", count: 11))?
        .kind == .tooLarge)
  }

  @Test func aBodyWithoutALengthStopsAtTheLimit() {
    #expect(
      error("HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 1001))?.kind == .tooLarge)
  }

  @Test func linesHeadsAndHeaderCountsPastTheirLimitsAreRefused() {
    #expect(
      error("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 300) + "\r\n\r\n")?.kind
        == .malformed)
    let many = (0..<9).map { "H\($0): v\r\n" }.joined()
    #expect(error("HTTP/1.1 200 OK\r\n" + many + "\r\n")?.kind == .malformed)
    let long = (0..<5).map { "H\($0): " + String(repeating: "v", count: 150) + "\r\n" }.joined()
    #expect(error("HTTP/1.1 200 OK\r\n" + long + "\r\n")?.kind == .malformed)
    // Endless interim answers count against the same head limit.
    #expect(
      error(String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 40))?.kind == .malformed)
    // A line that never ends is refused once it passes the limit, not buffered.
    #expect(
      error("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 10_000))?.kind == .malformed)
  }

  @Test func whatIsNotHTTPIsRefused() {
    for text in [
      "", "garbage\r\n\r\n", "HTTP/2 200\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n",
      "HTTP/1.1 999 What\r\n\r\n",
      "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
      "HTTP/1.1 200 OK\r\n folded: x\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
      "HTTP/1.1 101 Switching\r\n\r\n",
      "HTTP/1.1 200 OK\r\n",
    ] {
      #expect(error(text) != nil, "\(text.debugDescription)")
    }
    #expect(error("")?.description == "the server closed the connection without answering")
  }

  @Test func retryAfterIsReadAsSecondsCutToALimitOrAnHTTPDate() {
    #expect(HTTPResponseParser.retryAfter("120") == .seconds(120))
    #expect(HTTPResponseParser.retryAfter(" 0 ") == .seconds(0))
    #expect(
      HTTPResponseParser.retryAfter("10000000000000000")
        == .seconds(HTTPResponseParser.maxRetrySeconds))
    #expect(
      HTTPResponseParser.retryAfter(String(repeating: "9", count: 5000))
        == .seconds(HTTPResponseParser.maxRetrySeconds))
    for junk in [
      "-1", "1.5", "soon", "", "0x10", "Sun, 06 Nov 1994 08:49:37 CET",
      "Sunday, 06-Nov-94 08:49:37 GMT",
    ] {
      #expect(HTTPResponseParser.retryAfter(junk) == nil, "\(junk)")
    }
    #expect(
      HTTPResponseParser.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT")
        == .date(unixSeconds: 784_111_777))
    #expect(
      HTTPResponseParser.retryAfter("Fri, 31 Dec 9999 23:59:59 GMT")
        == .date(unixSeconds: 253_402_300_799))
    #expect(HTTPResponseParser.retryAfter("Mon, 31 Feb 2026 00:00:00 GMT") == nil)

    let now: Int64 = 784_111_777_000
    #expect(
      HTTPResponseParser.RetryAfter.date(unixSeconds: 784_111_787).milliseconds(now: now) == 10_000)
    #expect(HTTPResponseParser.RetryAfter.date(unixSeconds: 0).milliseconds(now: now) == 0)
    #expect(
      HTTPResponseParser.RetryAfter.date(unixSeconds: .max).milliseconds(now: now)
        == 1_000_000_000_000)
    #expect(HTTPResponseParser.RetryAfter.seconds(.max).milliseconds(now: now) == 1_000_000_000_000)
    #expect(HTTPResponseParser.RetryAfter.date(unixSeconds: .min).milliseconds(now: .max) == 0)
  }

  @Test func aRedirectsLocationIsKeptAsPrintableTextOnly() throws {
    let answer = try parse(
      "HTTP/1.1 301 Moved\r\nLocation: http://evil.example/\u{1B}[2J\r\nContent-Length: 0\r\n\r\n")
    #expect(answer.status == 301 && answer.location == "http://evil.example/[2J")
  }

  /// Random bytes and random damage to good answers, with a fixed seed: an answer or an error,
  /// never a trap; the body never passes the limit.
  @Test func randomAndDamagedAnswersNeverTrap() throws {
    let seed: UInt64 = 0x1234_5678
    print("HTTPResponseParserTests seed \(seed)")
    var random = SplitMix64(seed: seed)
    let good = Array(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nRetry-After: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
        .utf8)
    let alphabet = Array("0123456789abcdefABCDEF-+ :;\r\n\tHTTP/1.".utf8)
    for _ in 0..<20_000 {
      var bytes = good
      for _ in 0..<(1 + Int(random.next() % 4)) {
        let index = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 3 {
        case 0: bytes[index] = alphabet[Int(random.next() % UInt64(alphabet.count))]
        case 1: bytes.remove(at: index)
        default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: index)
        }
        if bytes.isEmpty { bytes = good }
      }
      if let answer = try? HTTPResponseParser.parse(bytes, limits: limits) {
        #expect(answer.body.count <= limits.maxBodyBytes)
      }
    }
  }
}
