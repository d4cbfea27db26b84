import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

/// `lifelog serve` stopped by signals: SIGTERM lets requests in flight finish, `kill -9` loses no
/// acknowledged batch; and the limits that keep it standing under load.
@Suite struct ServerLifecycleTests {
  let folder = TemporaryDirectory(prefix: "lifelog-serve-life")

  @Test func everyAcknowledgedBatchSurvivesKillDashNine() throws {
    let data = folder.file("data")
    let token = try ServerProcess(dataFolder: data).addUser("alice")
    var acknowledged: [String: [UInt8]] = [:]
    for round in 0..<3 {
      let server = try ServerProcess(dataFolder: data)
      let pushers = (0..<4).map { _ in Pusher(baseURL: server.baseURL, token: token) }
      let threads = pushers.map { pusher in Thread { pusher.run() } }
      threads.forEach { $0.start() }
      // Kill once every pusher has had a few batches acknowledged (however busy the machine),
      // at a moment that differs from round to round.
      let deadline = Date().addingTimeInterval(30)
      while pushers.contains(where: { $0.pushed < 3 }), Date() < deadline { usleep(10_000) }
      usleep(useconds_t(50_000 + round * 70_000))
      server.kill()
      pushers.forEach { $0.stop() }
      for pusher in pushers {
        acknowledged.merge(pusher.waitForAcknowledged()) { first, _ in first }
      }
      #expect(
        pushers.allSatisfy { $0.pushed > 0 }, "round \(round): some pusher got nothing acknowledged"
      )
    }
    let server = try ServerProcess(dataFolder: data)
    let stored = try allBatches(HTTPTestClient(baseURL: server.baseURL, token: token))
    let missing = acknowledged.keys.filter { stored[$0] != acknowledged[$0] }
    #expect(
      missing.isEmpty,
      "\(missing.count) of \(acknowledged.count) acknowledged batches are missing or changed")
    #expect(acknowledged.count > 20)
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func aSignalLetsTheRequestInFlightFinishThenStops(signal: Int32) throws {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    let token = try server.addUser("alice")
    let device = UUIDText.random()
    let bytes = SampleBatches.batch(device: device, seq: 1, rows: 200)
    let connection = try RawHTTPConnection(port: server.port)
    let head =
      "PUT /v1/batches/\(device)/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
      + "Content-Length: \(bytes.count)\r\n\r\n"
    try connection.send(Array(head.utf8) + bytes.prefix(bytes.count / 2))
    usleep(200_000)
    kill(server.process.processIdentifier, signal)
    usleep(200_000)
    #expect(server.process.isRunning, "the server stopped with a request in flight")
    try connection.send(Array(bytes.suffix(from: bytes.count / 2)))
    let response = try connection.readResponse()
    #expect(response.hasPrefix("HTTP/1.1 201"), "\(response)")
    #expect(server.wait(timeout: 20) == 0)
    #expect(server.log.contains("finishing 1 request(s)"), "\(server.log)")
    #expect(server.log.contains("stopped"))
    #expect((try? RawHTTPConnection(port: server.port)) == nil, "still listening after stopping")

    let again = try ServerProcess(dataFolder: folder.file("data"))
    let stored = try allBatches(HTTPTestClient(baseURL: again.baseURL, token: token))
    #expect(stored["\(device)/1"] == bytes)
  }

  /// The test support's own hygiene: a `ServerProcess` that stopped (by SIGTERM, by SIGKILL, or
  /// by itself) lets its Foundation `Process` go, or every server a test starts stays in memory
  /// and LeakSanitizer fails the test process (docs/testing.md, "Sanitizers").
  @Test(arguments: ["terminate", "kill", "exit"])
  func aStoppedServerLetsItsProcessGo(stop: String) throws {
    weak var process: Process?
    try {
      let server = try ServerProcess(dataFolder: folder.file("data-\(stop)"))
      process = server.process
      switch stop {
      case "terminate": #expect(server.terminate() == 0)
      case "kill": server.kill()
      default:
        // Gone without this ServerProcess's help: only its deinit can let the Process go.
        kill(server.process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(20)
        while server.process.isRunning, Date() < deadline { usleep(10_000) }
      }
    }()
    // Foundation's manager thread drops its own reference just after it reports the exit.
    let deadline = Date().addingTimeInterval(10)
    while process != nil, Date() < deadline { usleep(10_000) }
    #expect(process == nil, "the Process of a server stopped by \(stop) is still alive")
  }

  @Test func requestsPastTheConcurrencyLimitGet503WithRetryAfter() throws {
    let server = try ServerProcess(
      dataFolder: folder.file("data"), arguments: ["--max-concurrent", "1"])
    let token = try server.addUser("alice")
    // An admitted request (it has a valid token) counts until it is answered: here, one whose
    // body is still on its way. (One refused at its headers never counts: ServerConnectionLimitTests.)
    let slow = try RawHTTPConnection(port: server.port)
    try slow.send(
      Array(
        ("PUT /v1/batches/abc/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
          + "Content-Length: 100\r\n\r\n").utf8))
    usleep(100_000)
    let refused = try HTTPTestClient(baseURL: server.baseURL, token: token).get("/v1/manifest")
    #expect(refused.status == 503)
    #expect(refused.errorCode == "overloaded")
    #expect(refused.header("Retry-After") == "1")
    try slow.send([UInt8](repeating: 0x61, count: 100))
    #expect(try slow.readResponse().hasPrefix("HTTP/1.1 400"))
    #expect(
      try HTTPTestClient(baseURL: server.baseURL, token: token).get("/v1/manifest").status == 200)
  }

  @Test func garbageOnTheWireIsAnsweredAndTheServerGoesOn() throws {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    for garbage in [
      "GARBAGE\r\n\r\n", "GET /v1/info HTTP/9.9\r\n\r\n",
      "GET /v1/info HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
      "PUT /v1/batches/a/1 HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
      "GET /" + String(repeating: "a", count: 70_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
    ] {
      let connection = try RawHTTPConnection(port: server.port)
      try? connection.send(Array(garbage.utf8))
      _ = try? connection.readResponse()
    }
    #expect(try HTTPTestClient(baseURL: server.baseURL).get("/v1/info").status == 200)
  }

  @Test func tlsServesHTTPS() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
      FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
    else { return }
    let certificate = folder.file("cert.pem")
    let key = folder.file("key.pem")
    let made = try runTool(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
        "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
      ])
    try #require(made.status == 0, "\(made.output)")
    let server = try ServerProcess(
      dataFolder: folder.file("data"), arguments: ["--tls-cert", certificate, "--tls-key", key])
    let info = try runTool(
      "/usr/bin/curl", ["-sS", "--cacert", certificate, "https://127.0.0.1:\(server.port)/v1/info"])
    #expect(info.status == 0, "\(info.output)")
    #expect(info.output.contains("\"lifelog\":\"server\""))
    let plain = try runTool("/usr/bin/curl", ["-sS", "http://127.0.0.1:\(server.port)/v1/info"])
    #expect(!plain.output.contains("\"lifelog\":\"server\""))
  }

  @Test func theBinaryDoesNotLinkLibmicrohttpd() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd") else { return }
    let libraries = try runTool("/usr/bin/ldd", [LifelogProcess.binaryPath])
    #expect(libraries.status == 0, "\(libraries.output)")
    #expect(libraries.output.contains("libc.so"))
    #expect(
      !libraries.output.contains("microhttpd"), "every command would load it: \(libraries.output)")
  }

  @Test func aBusyPortIsAClearError() throws {
    let first = try ServerProcess(dataFolder: folder.file("one"))
    let second = try LifelogProcess.run([
      "serve", "--listen", "127.0.0.1:\(first.port)", "--data", folder.file("two"),
    ])
    #expect(second.exitCode == 69)
    #expect(second.stderr.hasPrefix("Error: Cannot serve:"), "\(second.stderr)")
  }
}

/// Every batch of the user, as `device/seq` → bytes.
func allBatches(_ client: HTTPTestClient) throws -> [String: [UInt8]] {
  var result: [String: [UInt8]] = [:]
  var cursor = ""
  while true {
    let page = try ChangesBody(try client.get("/v1/changes?after=\(cursor)&limit=1000"))
    for batch in page.batches { result["\(batch.device)/\(batch.seq)"] = batch.bytes }
    cursor = page.cursor
    if !page.more { return result }
  }
}

/// Pushes batches of its own device one after another until stopped, remembering each one the
/// server acknowledged (201 or 200).
final class Pusher: @unchecked Sendable {
  let client: HTTPTestClient
  let device = UUIDText.random()
  private let lock = NSLock()
  private var acknowledged: [String: [UInt8]] = [:]
  private var stopped = false
  private let done = DispatchSemaphore(value: 0)

  init(baseURL: String, token: String) { client = HTTPTestClient(baseURL: baseURL, token: token) }

  var pushed: Int { lock.withLock { acknowledged.count } }

  func run() {
    var seq = 1
    while !lock.withLock({ stopped }) {
      let bytes = SampleBatches.batch(device: device, seq: seq, rows: 50)
      guard let response = try? client.put("/v1/batches/\(device)/\(seq)", bytes) else { break }
      if response.status == 201 || response.status == 200 {
        lock.withLock { acknowledged["\(device)/\(seq)"] = bytes }
        seq += 1
      }
    }
    done.signal()
  }

  func stop() { lock.withLock { stopped = true } }

  func waitForAcknowledged() -> [String: [UInt8]] {
    done.wait()
    return lock.withLock { acknowledged }
  }
}

/// A plain TCP connection, to send requests byte by byte.
final class RawHTTPConnection {
  let socket: Int32

  /// Connects to 127.0.0.1:`port` from `source` (any of 127/8: loopback takes them all).
  init(port: Int, from source: String = "127.0.0.1") throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      close(socket)
      throw ServerProcessError(message: "cannot bind to \(source)")
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw ServerProcessError(message: "cannot connect to port \(port)")
    }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(socket) }

  /// Whether the server has closed the connection (its end read, or reset), without waiting.
  var isClosedByServer: Bool {
    var byte: UInt8 = 0
    let count = recv(socket, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
    return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
  }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { throw ServerProcessError(message: "send failed") }
      offset += sent
    }
  }

  /// Reads until the server closes the connection or a whole response (by Content-Length) is in.
  func readResponse() throws -> String {
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      data += chunk[0..<count]
      let text = String(decoding: data, as: UTF8.self)
      if let end = text.range(of: "\r\n\r\n") {
        let head = text[..<end.lowerBound].lowercased()
        if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }
        ),
          let length = Int(
            line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)),
          text.utf8.count - text[..<end.upperBound].utf8.count >= length
        {
          break
        }
      }
    }
    guard !data.isEmpty else { throw ServerProcessError(message: "no response") }
    return String(decoding: data, as: UTF8.self)
  }
}

func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
