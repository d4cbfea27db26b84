import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogTestSupport
import Testing

/// Clients that hold connections without ever finishing a request: slow, tokenless uploads and
/// idle connections from one address must not lock the real users out (docs/deploy.md).
@Suite struct ServerConnectionLimitTests {
  let folder = TemporaryDirectory(prefix: "lifelog-serve-slow")

  /// 300 slow uploads without a token lock nobody out.
  ///
  /// Each sends its headers (a 64 MiB body declared) and a trickle of body, then is held open.
  /// Each is answered 401 at its headers and closed without its body being read, none counts
  /// against `--max-concurrent`, and a user's request is answered 200.
  @Test func slowTokenlessUploadsAreRefusedAtTheirHeadersAndLockNobodyOut() throws {
    let server = try ServerProcess(
      dataFolder: folder.file("data"),
      arguments: ["--max-concurrent", "16", "--max-connections-per-address", "0"])
    let alice = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("alice"))
    let path = "/v1/batches/\(UUIDText.random())/1"
    let uploads = try (0..<300).map { _ in try RawHTTPConnection(port: server.port) }
    let head = "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(64 << 20)\r\n\r\n"
    for upload in uploads { try upload.send(Array(head.utf8)) }
    for upload in uploads { try? upload.send([UInt8](repeating: 0x78, count: 100)) }

    let manifest = try alice.get("/v1/manifest")
    #expect(manifest.status == 200, "\(manifest.status) \(manifest.text)")
    for upload in uploads {
      let answer = (try? upload.readResponse()) ?? ""
      #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer.prefix(80))")
      #expect(answer.lowercased().contains("connection: close"))
    }
    #expect(try alice.get("/v1/manifest").status == 200)
  }

  /// A body sent without a length (chunked) is read only up to `--max-body`: past it the
  /// connection is closed, where it used to be read and thrown away without end.
  @Test func aChunkedBodyPastTheLimitClosesTheConnection() throws {
    let server = try ServerProcess(
      dataFolder: folder.file("data"), arguments: ["--max-body", "65536"])
    let token = try server.addUser("alice")
    let upload = try RawHTTPConnection(port: server.port)
    try upload.send(
      Array(
        ("PUT /v1/batches/\(UUIDText.random())/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Authorization: Bearer \(token)\r\nTransfer-Encoding: chunked\r\n\r\n").utf8))
    let chunk =
      Array("4000\r\n".utf8) + [UInt8](repeating: 0x61, count: 0x4000) + Array("\r\n".utf8)
    var sent = 0
    // 64 MiB at most; the server stops reading after 64 KiB, so sending fails long before.
    while sent < 64 << 20, (try? upload.send(chunk)) != nil { sent += 0x4000 }
    #expect(sent < 64 << 20, "the server read all \(sent) bytes")
    #expect(try HTTPTestClient(baseURL: server.baseURL).get("/v1/info").status == 200)
  }

  /// A batch over `--max-body`, far larger than the socket buffers: the server answers 413 at
  /// the headers and closes without reading the body, so sending it breaks; the client still
  /// reads the answer and says what the server said, at once, instead of retrying a "broken
  /// connection" until `--timeout`.
  @Test func aBatchOverMaxBodyIsRefusedAndTheClientSaysWhy() throws {
    let server = try ServerProcess(
      dataFolder: folder.file("data"), arguments: ["--max-body", "65536"])
    let token = try server.addUser("alice")
    let laptop = SyncMachine("laptop", in: folder)
    // 1,000 entries with notes of 6,000 letters that do not compress (a fixed-seed generator):
    // one batch of about 4 MB on the wire.
    let csv = folder.file("big.csv")
    var seed: UInt64 = 20_261_204
    let rows = (0..<1000).map { index in
      let note = (0..<6000).map { _ in
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Character(Unicode.Scalar(UInt8(97 + (seed >> 33) % 26)))
      }
      return "2026-11-\(10 + index % 19) 12:00,snack," + String(note)
    }
    try Data((["at,activity,note"] + rows).joined(separator: "\n").utf8).write(
      to: URL(fileURLWithPath: csv))
    try laptop.expectSuccess("import", csv)
    let joined = try LifelogProcess.run(
      ["remote", "add", "home", server.baseURL],
      environment: laptop.environment.merging(["LIFELOG_TOKEN": token]) { $1 })
    try #require(joined.exitCode == 0, "\(joined)")
    let sync = try laptop.run("sync", "--timeout", "30")
    #expect(sync.exitCode == 69, "\(sync)")
    #expect(
      sync.stderr.contains(
        "the server answered 413 when asked to store batch 1: The body is larger than this "
          + "server accepts (65536 bytes)"), "\(sync)")
  }

  /// Past `--max-connections-per-address`, a new connection from the same address is closed
  /// at once; once one of the others closes, that address is served again.
  @Test func oneAddressHoldsNoMoreThanItsShareOfConnections() throws {
    let server = try ServerProcess(
      dataFolder: folder.file("data"), arguments: ["--max-connections-per-address", "4"])
    let token = try server.addUser("alice")
    let info = Array("GET /v1/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    var idle = try (0..<4).map { _ in try RawHTTPConnection(port: server.port) }
    // A request on each makes sure the server has accepted all four before the fifth comes.
    for connection in idle {
      try connection.send(info)
      #expect(try connection.readResponse().hasPrefix("HTTP/1.1 200"))
    }
    let fifth = try RawHTTPConnection(port: server.port)
    try? fifth.send(info)
    #expect((try? fifth.readResponse()) == nil, "a fifth connection was served")

    idle.removeLast()
    var answered = false
    // The server notices the closed connection on its own schedule: a few tries.
    for _ in 0..<50 where !answered {
      let again = try RawHTTPConnection(port: server.port)
      try? again.send(
        Array(
          "GET /v1/manifest HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
            .utf8))
      answered = (try? again.readResponse())?.hasPrefix("HTTP/1.1 200") == true
      if !answered { usleep(20_000) }
    }
    #expect(answered)
    _ = idle
  }
}
