import Foundation
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Synchronization
import Testing

/// ``DAVRemote`` against a fake server on 127.0.0.1 that answers what a real one rarely does:
/// busy with `Retry-After`, a redirect, a full quota, an answer too large.
@Suite struct DAVRemoteTests {
  static let manifest = Array(
    #"{"lifelog":"remote","format":1,"remoteId":"r1","minVersion":"0.2.0"}"#.utf8)

  func remote(_ server: LoopbackServer, seconds: Int64 = 20) throws -> DAVRemote {
    try DAVRemote(
      url: "dav://127.0.0.1:\(server.port)/dav/lifelog", user: "alice", password: "secret",
      deadline: LogStore.systemMilliseconds() + seconds * 1000)
  }

  @Test func aBusyServerIsAskedAgainAfterRetryAfter() throws {
    let calls = Atomic<Int>(0)
    let server = try LoopbackServer { request in
      if calls.add(1, ordering: .relaxed).newValue == 1 {
        return Array(
          "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 0\r\nContent-Length: 0\r\n\r\n".utf8)
      }
      return LoopbackServer.response(status: "200 OK", body: DAVRemoteTests.manifest)
    }
    #expect(try remote(server).manifest().remoteID == "r1")
    #expect(
      server.requests == [
        "GET /dav/lifelog/lifelog-remote.json", "GET /dav/lifelog/lifelog-remote.json",
      ])
  }

  @Test func aRedirectIsNeverFollowed() throws {
    let server = try LoopbackServer { _ in
      Array(
        "HTTP/1.1 301 Moved\r\nLocation: http://elsewhere.example/x\r\nContent-Length: 0\r\n\r\n"
          .utf8)
    }
    #expect {
      try remote(server).manifest()
    } throws: { error in
      "\(error)".contains("redirect") && "\(error)".contains("elsewhere.example")
    }
    #expect(server.requests.count == 1)
  }

  @Test func aRefusedPasswordAFullQuotaAndATooLargeAnswerAreNamed() throws {
    let refusing = try LoopbackServer { _ in
      LoopbackServer.response(status: "401 Unauthorized", body: [])
    }
    #expect(
      throws: SyncError.passwordRefused(
        "dav://127.0.0.1:\(refusing.port)/dav/lifelog", user: "alice")
    ) {
      try remote(refusing).manifest()
    }

    let full = try LoopbackServer { request in
      request.method == "PUT"
        ? LoopbackServer.response(status: "507 Insufficient Storage", body: [])
        : LoopbackServer.response(status: "404 Not Found", body: [])
    }
    #expect {
      try remote(full).push(device: "d1", seq: 1, bytes: Array("x".utf8))
    } throws: { error in
      "\(error)".contains("507 Insufficient Storage") && "\(error)".contains("quota")
    }

    let huge = try LoopbackServer { _ in
      LoopbackServer.response(status: "200 OK", body: [UInt8](repeating: 0x20, count: 100_000))
    }
    #expect {
      try remote(huge).manifest()
    } throws: { error in
      "\(error)".contains("larger than")
    }
  }

  @Test func aServerThatNeverAnswersEndsAtTheDeadline() throws {
    let silent = try LoopbackServer { _ in [] }
    #expect {
      try remote(silent, seconds: 1).manifest()
    } throws: { error in
      "\(error)".contains("could not be reached in time")
    }
  }

  @Test func aServerThatEchoesThePasswordDoesNotGetItIntoTheError() throws {
    let echoing = try LoopbackServer { _ in
      LoopbackServer.response(
        status: "500 Internal Server Error",
        body: Array("bad request: Authorization: Basic YWxpY2U6c2VjcmV0 (secret)".utf8))
    }
    #expect {
      try remote(echoing, seconds: 2).manifest()
    } throws: { error in
      let text = "\(error)"
      return text.contains("500") && !text.contains("secret") && !text.contains("YWxpY2U6c2VjcmV0")
    }
  }

  @Test func aServerThatTricklesAnEndlessAnswerEndsAtTheDeadline() throws {
    let trickling = try LoopbackServer.accepting { socket in
      var buffer = [UInt8](repeating: 0, count: 4096)
      _ = read(socket, &buffer, buffer.count)
      let head = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
      var sent = head.withUnsafeBytes {
        send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      // One byte a tenth of a second, until the client hangs up (or a minute has passed).
      var rounds = 0
      while sent > 0, rounds < 600 {
        let chunk = Array("1\r\n{\r\n".utf8)
        sent = chunk.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        usleep(100_000)
        rounds += 1
      }
      close(socket)
    }
    #expect {
      try remote(trickling, seconds: 1).manifest()
    } throws: { error in
      "\(error)".contains("in time")
    }
  }
}
