import Foundation
@preconcurrency import Glibc
import LifelogCore
import LifelogTestSupport
import Testing

/// Clients that hold connections without ever finishing a request: slow, tokenless uploads and
/// idle connections from one address must not lock the real users out (docs/deploy.md).
@Suite struct ServerConnectionLimitTests {
  let folder = TemporaryDirectory(prefix: "lifelog-serve-slow")

  /// 300 uploads without a token, each sending its headers (a 64 MiB body declared) and a trickle
  /// of body, then held open. Each is answered 401 at its headers and closed without its body
  /// being read, none counts against `--max-concurrent`, and a user's request is answered 200.
  @Test func slowTokenlessUploadsAreRefusedAtTheirHeadersAndLockNobodyOut() throws {
    let server = try ServerProcess(
      dataFolder: folder.file("data"),
      arguments: ["--max-concurrent", "16", "--max-connections-per-address", "0"])
    let alice = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("alice"))
    let path = "/v1/batches/\(UUIDText.random())/1"
    let uploads = try (0..<300).map { _ in try RawConnection(port: server.port) }
    for upload in uploads {
      try upload.send(
        "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(64 << 20)\r\n\r\n")
    }
    for upload in uploads { try upload.send(String(repeating: "x", count: 100)) }

    let manifest = try alice.get("/v1/manifest")
    #expect(manifest.status == 200, "\(manifest.status) \(manifest.text)")
    for upload in uploads {
      let answer = upload.receiveUntilClosed()
      #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer.prefix(80))")
      #expect(answer.lowercased().contains("connection: close"))
    }
    #expect(try alice.get("/v1/manifest").status == 200)
  }

  /// Past `--max-connections-per-address`, a new connection from the same address is closed
  /// at once; once one of the others closes, that address is served again.
  @Test func oneAddressHoldsNoMoreThanItsShareOfConnections() throws {
    let server = try ServerProcess(
      dataFolder: folder.file("data"), arguments: ["--max-connections-per-address", "4"])
    let token = try server.addUser("alice")
    var idle = try (0..<4).map { _ in try RawConnection(port: server.port) }
    // A request on each makes sure the server has accepted all four before the fifth comes.
    for connection in idle {
      try connection.send("GET /v1/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      #expect(connection.receiveResponseHead().hasPrefix("HTTP/1.1 200"))
    }
    let fifth = try RawConnection(port: server.port)
    try? fifth.send("GET /v1/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    #expect(fifth.receiveUntilClosed() == "", "a fifth connection was served")

    idle.removeLast()
    var answered = false
    // The server notices the closed connection on its own schedule: a few tries.
    for _ in 0..<50 where !answered {
      let again = try RawConnection(port: server.port)
      try? again.send(
        "GET /v1/manifest HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n")
      answered = again.receiveResponseHead().hasPrefix("HTTP/1.1 200")
      if !answered { usleep(20_000) }
    }
    #expect(answered)
    _ = idle
  }
}

/// A TCP connection to 127.0.0.1 spoken to byte by byte, for clients no HTTP library would be.
final class RawConnection {
  private let descriptor: Int32

  init(port: Int) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else {
      throw RawConnectionError("socket: \(String(cString: strerror(errno)))")
    }
    // A safety net: no read here waits longer, whatever the server does.
    var timeout = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw RawConnectionError("connect: \(reason)")
    }
  }

  deinit { close(descriptor) }

  func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw RawConnectionError("send: \(String(cString: strerror(errno)))") }
      sent += count
    }
  }

  /// Everything the server sends until it closes the connection (or resets it, or 20 s pass).
  func receiveUntilClosed() -> String {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      received += buffer[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
  }

  /// The status line and headers of one response ("" when the connection closed first).
  func receiveResponseHead() -> String {
    var received: [UInt8] = []
    var byte: UInt8 = 0
    while !received.ends(with: [0x0D, 0x0A, 0x0D, 0x0A]) {
      guard recv(descriptor, &byte, 1, 0) == 1 else { break }
      received.append(byte)
    }
    return String(decoding: received, as: UTF8.self)
  }
}

struct RawConnectionError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
