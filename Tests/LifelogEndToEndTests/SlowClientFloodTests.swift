@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// Slow clients from many addresses must not lock the real users out of `lifelog serve`.
///
/// docs/security.md, "Slow clients": caps per address, room kept for clients past their request
/// head, and a deadline for the whole head. Loopback takes every address of 127/8, so each
/// "client" binds its own source address.
@Suite struct SlowClientFloodTests {
  let folder = TemporaryDirectory(prefix: "lifelog-serve-flood")

  /// A request head that never ends: the request line and one header, no blank line.
  static let unfinishedHead = Array("GET /v1/info HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)

  /// Waits (at most `seconds`) until `condition` holds; whether it did.
  static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
    var waited = 0.0
    while !condition() {
      guard waited < seconds else { return false }
      usleep(20_000)
      waited += 0.02
    }
    return true
  }

  /// 10 addresses open 3 slow heads each against 16 connections, 2 per address: the third of
  /// each address is closed at once, slow heads keep at most 12 (a quarter is kept for clients
  /// past their head; the longest waiting makes room), and a real client from a new address is
  /// answered.
  @Test func slowHeadsFromManyAddressesLockNobodyOut() throws {
    // One thread, so connections are accepted in the order they were made, and a head deadline
    // far beyond the test, so only the caps decide.
    let server = try ServerProcess(
      dataFolder: folder.file("data"),
      arguments: [
        "--threads", "1", "--max-connections", "16", "--max-connections-per-address", "2",
        "--head-timeout", "600",
      ])
    var slow: [(address: String, connection: RawHTTPConnection)] = []
    for host in 2...11 {
      for _ in 0..<3 {
        let connection = try RawHTTPConnection(port: server.port, from: "127.0.0.\(host)")
        try? connection.send(Self.unfinishedHead)
        slow.append(("127.0.0.\(host)", connection))
      }
    }
    // The last one made is an address's third: once it is closed, every one before it has been
    // accepted or refused.
    let last = try #require(slow.last?.connection)
    #expect(Self.wait(seconds: 30) { last.isClosedByServer }, "an address's third was kept")
    let open = slow.filter { !$0.connection.isClosedByServer }
    #expect(open.count == 12, "\(open.count) slow heads are held: \(open.map(\.address))")
    for host in 2...11 {
      #expect(open.filter { $0.address == "127.0.0.\(host)" }.count <= 2)
    }

    let user = try RawHTTPConnection(port: server.port, from: "127.0.0.99")
    try user.send(Array("GET /v1/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    let answer = try user.readResponse()
    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(80))")
  }

  /// A head that trickles in a byte at a time is cut off at `--head-timeout`, though it is never
  /// idle for long (the idle timeout, 60 s, never comes).
  @Test func aTricklingHeadIsCutOffAtTheHeadDeadline() throws {
    let server = try ServerProcess(
      dataFolder: folder.file("data"), arguments: ["--threads", "1", "--head-timeout", "2"])
    let slow = try RawHTTPConnection(port: server.port, from: "127.0.0.2")
    try slow.send(Self.unfinishedHead + Array("X-Slow: ".utf8))
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    var sent = 0
    // A byte every 50 ms for at most 45 s (900 bytes of one header).
    while sent < 900, !slow.isClosedByServer, (try? slow.send([0x61])) != nil {
      sent += 1
      usleep(50_000)
    }
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &end)
    #expect(slow.isClosedByServer || sent < 900, "a trickling head was kept for \(sent) bytes")
    // Never before the deadline: the connection opened before `start`.
    #expect(end.tv_sec - start.tv_sec >= 1, "cut off before the deadline")
    // The server goes on answering.
    let user = try RawHTTPConnection(port: server.port, from: "127.0.0.3")
    try user.send(Array("GET /v1/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    #expect(try user.readResponse().hasPrefix("HTTP/1.1 200"))
  }

  /// The one body a client with no token may send, a pairing code's redemption, is held to the
  /// head's deadline too, and takes none of `--max-concurrent` while it trickles in: a client
  /// with a token is still answered, and a whole redemption still is.
  @Test func aTricklingBodyWithoutATokenIsCutOffAtTheHeadDeadline() throws {
    let server = try ServerProcess(
      dataFolder: folder.file("data"),
      arguments: ["--threads", "1", "--head-timeout", "2", "--max-concurrent", "1"])
    let token = try server.addUser("alice")
    let slow = try RawHTTPConnection(port: server.port, from: "127.0.0.2")
    try slow.send(
      Array(
        "POST /v1/pairings/redeem HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{\"code\":\""
          .utf8))
    var sent = 0
    // A byte every 50 ms for at most 45 s.
    while sent < 900, !slow.isClosedByServer, (try? slow.send([0x61])) != nil {
      sent += 1
      if sent == 10 {
        let user = try RawHTTPConnection(port: server.port, from: "127.0.0.3")
        try user.send(
          Array(
            "GET /v1/manifest HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
              .utf8))
        let answer = try user.readResponse()
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(80))")
      }
      usleep(50_000)
    }
    #expect(slow.isClosedByServer || sent < 900, "a trickling body was kept for \(sent) bytes")

    let whole = try RawHTTPConnection(port: server.port, from: "127.0.0.4")
    let body = #"{"code":"llp_unknown"}"#
    try whole.send(
      Array(
        "POST /v1/pairings/redeem HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
          .utf8))
    #expect(try whole.readResponse().hasPrefix("HTTP/1.1 404"))
  }
}
