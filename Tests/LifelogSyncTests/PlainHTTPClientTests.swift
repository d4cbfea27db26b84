@preconcurrency import Glibc
import LifelogTestSupport
import Testing

@testable import LifelogSync

/// The socket client of `http://` remotes against a real server on 127.0.0.1: what it sends, what
/// it reads back, and how each way of failing is told apart (worth a retry, or a bad answer).
@Suite struct PlainHTTPClientTests {
  /// The client's clock stands still, so the deadline is the longest one wait may take; a server
  /// that answers is never waited for that long.
  static func request(
    _ method: String = "GET", url: String, path: String, body: [UInt8]? = nil,
    maxBodyBytes: Int = 1 << 20, patienceMilliseconds: Int64 = 20_000
  ) -> PlainHTTPClient.Outcome {
    PlainHTTPClient.request(
      method, url: url, path: path, headers: [("Authorization", "Bearer t0ken")], body: body,
      limits: .init(maxBodyBytes: maxBodyBytes), deadline: patienceMilliseconds, now: { 0 })
  }

  @Test func anAddressSplitsIntoHostPortAndPathPrefix() throws {
    let plain = try #require(PlainHTTPClient.split("http://127.0.0.1:8787/sync"))
    #expect(plain == ("127.0.0.1", "8787", "/sync"))
    let bare = try #require(PlainHTTPClient.split("http://example.org"))
    #expect(bare == ("example.org", "80", ""))
    let ipv6 = try #require(PlainHTTPClient.split("http://[::1]:9000/"))
    #expect(ipv6 == ("::1", "9000", "/"))
    #expect(PlainHTTPClient.split("https://example.org") == nil)
    #expect(PlainHTTPClient.split("http://") == nil)
    #expect(PlainHTTPClient.split("http://[::1") == nil)
  }

  @Test func aRequestArrivesAsWrittenAndItsAnswerComesBack() throws {
    let server = try LoopbackServer { request in
      LoopbackServer.response(status: "201 Created", body: request.body.reversed())
    }
    defer { server.stop() }
    let outcome = Self.request(
      "PUT", url: server.url + "/base", path: "/v1/batches/d/1", body: Array("batch".utf8))
    guard case .response(let response) = outcome else {
      Issue.record("expected an answer, got \(outcome)")
      return
    }
    #expect(response.status == 201)
    #expect(response.body == Array("hctab".utf8))
    #expect(server.requests == ["PUT /base/v1/batches/d/1"])
  }

  @Test func aChunkedAnswerArrivesWhole() throws {
    let server = try LoopbackServer { _ in
      Array(
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
          + "4\r\nlife\r\n3\r\nlog\r\n0\r\n\r\n").utf8)
    }
    defer { server.stop() }
    guard case .response(let response) = Self.request(url: server.url, path: "/v1/info") else {
      Issue.record("expected an answer")
      return
    }
    #expect(response.body == Array("lifelog".utf8))
  }

  @Test func anAnswerLargerThanTheLimitIsABadAnswerNotARetry() throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.response(status: "200 OK", body: [UInt8](repeating: 0x61, count: 2048))
    }
    defer { server.stop() }
    let outcome = Self.request(url: server.url, path: "/v1/changes", maxBodyBytes: 1024)
    guard case .badAnswer = outcome else {
      Issue.record("expected a bad answer, got \(outcome)")
      return
    }
  }

  @Test func noServerAtTheAddressIsAFailureWorthRetrying() throws {
    let server = try LoopbackServer { _ in [] }
    let url = server.url
    server.stop()
    let outcome = Self.request(url: url, path: "/v1/info")
    guard case .failure = outcome else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
  }

  /// A server that refuses at the headers (as `lifelog serve` does for a missing token or a body
  /// over `--max-body`) answers and closes without reading the body: the client's send then
  /// breaks (EPIPE or ECONNRESET), and the refusal must still be what the client reports.
  @Test func aRefusalSentBeforeTheBodyWasReadIsReadAfterTheSendBreaks() throws {
    let server = try LoopbackServer.accepting { client in
      defer { close(client) }  // with the body unread: the connection is reset
      var head: [UInt8] = []
      var byte: UInt8 = 0
      while !head.suffix(4).elementsEqual([13, 10, 13, 10]), recv(client, &byte, 1, 0) == 1 {
        head.append(byte)
      }
      _ = LoopbackServer.sendAll(
        LoopbackServer.response(
          status: "413 Content Too Large", body: Array(#"{"error":"too_large"}"#.utf8))[...],
        to: client)
      shutdown(client, Int32(SHUT_WR))
    }
    defer { server.stop() }
    // Far more than the socket buffers of both ends hold, so the send cannot finish.
    let body = [UInt8](repeating: 0x62, count: 64 << 20)
    let outcome = Self.request("PUT", url: server.url, path: "/v1/batches/d/1", body: body)
    guard case .response(let response) = outcome else {
      Issue.record("expected the refusal, got \(outcome)")
      return
    }
    #expect(response.status == 413)
    #expect(response.body == Array(#"{"error":"too_large"}"#.utf8))
  }

  @Test func aServerThatNeverAnswersFailsAtTheDeadline() throws {
    // An empty answer holds the connection open without a byte, until the client gives up.
    let server = try LoopbackServer { _ in [] }
    defer { server.stop() }
    let outcome = Self.request(url: server.url, path: "/v1/info", patienceMilliseconds: 200)
    guard case .failure(let reason) = outcome else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
    #expect(reason == "no complete answer before the deadline")
  }
}
