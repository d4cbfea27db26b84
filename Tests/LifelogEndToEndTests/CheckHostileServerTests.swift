import Foundation
@preconcurrency import Glibc
import LifelogSQLite
import LifelogTestSupport
import Synchronization
import Testing

/// `lifelog check --remote` against a server that lies: well-formed HTTP carrying a page of changes
/// whose index does not match its bytes, or a cursor that never moves. Each is a finding (exit 65),
/// never a trap or a hang.
@Suite struct CheckHostileServerTests {
  let folder = TemporaryDirectory(prefix: "lifelog-check-hostile")
  static let remoteID = "0b7c9a52-3f8e-4a61-9d2e-5c1f7e8a4b30"

  /// A log with a remote `evil` at `url`, recorded as `remote add` would have left it.
  func machine(remoteAt url: String) throws -> SyncMachine {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("snack", "apple", "--at", "2026-12-01 10:00")
    let database = try Database(path: laptop.databasePath, mode: .readWrite)
    try database.execute(
      sql:
        "INSERT INTO sync_remote (name, url, remote_id, token) VALUES ('evil', '\(url)', '\(Self.remoteID)', 't')"
    )
    return laptop
  }

  static let manifest =
    #"{"lifelog":"remote","format":1,"remoteId":"\#(remoteID)","minVersion":"0.2.0","user":"alice"}"#
    + "\n"

  @Test(arguments: [
    (
      #"{"cursor":"1","more":false,"needsSnapshot":false,"batches":[{"device":"ab-cd","seq":1,"size":4096}]}"#,
      "lists a batch it does not hold"
    ),
    (
      #"{"cursor":"1","more":false,"needsSnapshot":false,"batches":[{"device":"ab-cd","seq":1,"size":-5}]}"#,
      "lists a batch it does not hold"
    ),
    (
      #"{"cursor":"1","more":false,"needsSnapshot":false,"batches":[{"device":"../../x","seq":1,"size":0}]}"#,
      "lists a batch it does not hold"
    ),
    (#"{"cursor":"../1?x=","more":false,"needsSnapshot":false,"batches":[]}"#, "cannot be read"),
    (#"{"cursor":"","more":true,"needsSnapshot":false,"batches":[]}"#, "stop moving forward"),
  ])
  func aLyingPageOfChangesIsAFindingNotACrash(index: String, finding: String) throws {
    let server = try CannedServer { path in
      if path.hasPrefix("/v1/manifest") { return (200, Array(Self.manifest.utf8)) }
      if path.hasPrefix("/v1/changes") { return (200, Array((index + "\n").utf8)) }
      return (404, Array(#"{"error":{"code":"not_found","message":"none"}}"#.utf8))
    }
    defer { server.stop() }
    let laptop = try machine(remoteAt: server.url)
    let result = try laptop.run("check", "--remote", "evil", "--timeout", "20")
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stdout.split(separator: "\n").contains {
        $0.hasPrefix("remote 'evil': the server") && $0.contains(finding)
      },
      "\(result)")
  }
}

/// A plain HTTP server on 127.0.0.1 that answers every request from `answer(path)`, one request per
/// connection: a stand-in for a server that lies.
final class CannedServer: @unchecked Sendable {
  let port: Int
  var url: String { "http://127.0.0.1:\(port)" }
  private let listener: Int32
  private let answer: @Sendable (String) -> (Int, [UInt8])
  private let stopped = Mutex(false)

  init(answer: @escaping @Sendable (String) -> (Int, [UInt8])) throws {
    self.answer = answer
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard descriptor >= 0, bound == 0, listen(descriptor, 16) == 0 else {
      close(descriptor)
      throw ServerProcessError(message: "cannot listen: \(String(cString: strerror(errno)))")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    listener = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [self] in serve() }
  }

  func stop() {
    stopped.withLock { $0 = true }
    shutdown(listener, Int32(SHUT_RDWR))
  }

  private func serve() {
    defer { close(listener) }
    while !stopped.withLock({ $0 }) {
      let client = accept(listener, nil, nil)
      if client < 0 { if errno == EINTR { continue } else { return } }
      var request: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while !request.contains(0x0A)
        || !String(decoding: request, as: UTF8.self).contains("\r\n\r\n")
      {
        let count = read(client, &chunk, chunk.count)
        if count <= 0 { break }
        request += chunk[0..<count]
      }
      let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self).split(
        separator: " ")
      let (status, body) = answer(line.count > 1 ? String(line[1]) : "/")
      let head =
        "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        + "Connection: close\r\n\r\n"
      let response = Array(head.utf8) + body
      _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
      close(client)
    }
  }
}
