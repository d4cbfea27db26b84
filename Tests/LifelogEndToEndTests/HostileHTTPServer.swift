import Foundation
@preconcurrency import Glibc
import Synchronization

/// A tiny HTTP server on 127.0.0.1 that answers like `lifelog serve` for an account holding
/// nothing, until it is told to answer one kind of request with crafted bytes.
///
/// The crafted bytes are what a broken or hostile server (or a proxy in between) could send: a
/// negative `Content-Length`, chunk sizes that overflow, an endless header line. One connection
/// per request, as the client makes them; each is answered, then closed.
final class HostileHTTPServer: @unchecked Sendable {
  /// The remote id of the manifest it serves.
  static let remoteID = "0a3f6c1e-2b4d-4e8f-9a1b-3c5d7e9f0a2b"

  let port: Int
  var url: String { "http://127.0.0.1:\(port)" }
  private let listener: Int32
  /// Requests whose `METHOD path` starts with `prefix` get `bytes` instead of the honest answer.
  private let state = Mutex<(prefix: String?, bytes: [UInt8], requests: [String], stopped: Bool)>(
    (nil, [], [], false))

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw ProxyError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, Glibc.listen(descriptor, 16) == 0 else {
      close(descriptor)
      throw ProxyError("bind/listen: \(String(cString: strerror(errno)))")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    listener = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  deinit { stop() }

  /// From now on, requests starting with `prefix` (`"GET /v1/changes"`) are answered `bytes`
  /// (none: the connection is held open, silent, until the client gives up).
  func answer(_ prefix: String, with bytes: [UInt8]) {
    state.withLock {
      $0.prefix = prefix
      $0.bytes = bytes
    }
  }

  /// `METHOD path` of every request so far.
  var requests: [String] { state.withLock { $0.requests } }

  func stop() {
    let first = state.withLock { state -> Bool in
      defer { state.stopped = true }
      return !state.stopped
    }
    if first { shutdown(listener, Int32(SHUT_RDWR)) }
  }

  private func acceptLoop() {
    defer { close(listener) }
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        return
      }
      if state.withLock({ $0.stopped }) {
        close(client)
        return
      }
      Thread.detachNewThread { [self] in serve(client) }
    }
  }

  private func serve(_ client: Int32) {
    defer { close(client) }
    guard let request = HostileHTTPServer.readRequest(client) else { return }
    let crafted = state.withLock { state -> [UInt8]? in
      state.requests.append(request)
      guard let prefix = state.prefix, request.hasPrefix(prefix) else { return nil }
      return state.bytes
    }
    if crafted != [] {  // no bytes at all: a server that accepts and never answers
      HostileHTTPServer.sendAll(crafted ?? HostileHTTPServer.honest(request), to: client)
      shutdown(client, Int32(SHUT_WR))
    }
    // Let the client read to the end before the socket goes (closing with unread input resets).
    var sink = [UInt8](repeating: 0, count: 4096)
    var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
    while poll(&poller, 1, 5000) > 0,
      sink.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0
    {}
  }

  /// What `lifelog serve` answers for an account holding nothing.
  static func honest(_ request: String) -> [UInt8] {
    func json(_ status: String, _ body: String) -> [UInt8] {
      Array(
        "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count + 1)\r\n\r\n\(body)\n"
          .utf8)
    }
    let notFound = json(
      "404 Not Found", #"{"error":{"code":"not_found","message":"nothing here"}}"#)
    switch request {
    case "GET /v1/manifest":
      return json(
        "200 OK", #"{"remoteId":"\#(remoteID)","format":1,"minVersion":"0.2.0","encrypted":false}"#)
    case _ where request.hasPrefix("GET /v1/changes"):
      return json("200 OK", #"{"cursor":"","more":false,"needsSnapshot":false,"batches":[]}"#)
    case _ where request.hasPrefix("PUT /v1/batches/"):
      return json("201 Created", #"{"stored":true}"#)
    case _ where request.hasPrefix("GET /v1/batches/"):
      return json("200 OK", #"{"batches":0}"#)
    default:
      return notFound
    }
  }

  /// `METHOD path` of the request on `socket`, its body read and dropped; nil when it breaks off.
  private static func readRequest(_ socket: Int32) -> String? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let end: [UInt8] = [13, 10, 13, 10]
    while true {
      if let headEnd = bytes.indices.first(where: { bytes[$0...].starts(with: end) }) {
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        let length =
          head.split(separator: "\r\n").compactMap { line -> Int? in
            line.lowercased().hasPrefix("content-length:")
              ? Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) : nil
          }.first ?? 0
        while bytes.count < headEnd + 4 + length {
          let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
          guard count > 0 else { return nil }
          bytes.append(contentsOf: chunk[0..<count])
        }
        let words = head.prefix { $0 != "\r" }.split(separator: " ")
        guard words.count >= 2 else { return nil }
        return "\(words[0]) \(words[1])"
      }
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      guard count > 0, bytes.count < 1 << 20 else { return nil }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  private static func sendAll(_ bytes: [UInt8], to socket: Int32) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0, errno == EINTR { continue }
      guard sent > 0 else { return }
      offset += sent
    }
  }
}
