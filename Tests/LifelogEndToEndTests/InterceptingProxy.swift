import Foundation
@preconcurrency import Glibc
import Synchronization

/// A TCP proxy on 127.0.0.1 that can keep the answer to a batch push from reaching the client.
///
/// The server has stored the batch; the client never hears so. That is the moment a client
/// killed mid-push, or a connection lost on the way back, leaves behind, made to happen every
/// time instead of by luck.
///
/// Each accepted connection gets its own connection to the server and two threads copying bytes,
/// one each way. A chunk the client sends that starts a request (`GET `, `PUT `, …) tells whether
/// the answer coming back belongs to a `PUT /v1/batches/…`.
final class InterceptingProxy: @unchecked Sendable {
  enum Mode: Sendable {
    /// Everything goes through both ways.
    case pass
    /// Requests go through, answers to batch pushes never do: the client waits for them.
    case holdPushAnswers
    /// The next answer to a batch push is dropped and its connection closed (as a network failure
    /// shows it); then everything passes.
    case dropNextPushAnswer
  }

  /// Where the proxy listens, on 127.0.0.1.
  let port: Int
  var url: String { "http://127.0.0.1:\(port)" }
  private let targetPort: Int
  private let listener: Int32
  private let state = Mutex<(mode: Mode, sockets: Set<Int32>, dropped: Int, stopped: Bool)>(
    (.pass, [], 0, false))

  var mode: Mode {
    get { state.withLock { $0.mode } }
    set { state.withLock { $0.mode = newValue } }
  }

  /// How many push answers were held back or dropped so far.
  var interceptedAnswers: Int { state.withLock { $0.dropped } }

  init(targetPort: Int) throws {
    self.targetPort = targetPort
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw ProxyError("socket: \(String(cString: strerror(errno)))") }
    var address = InterceptingProxy.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, Glibc.listen(descriptor, 64) == 0 else {
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

  /// Stops listening and closes every connection.
  func stop() {
    let sockets = state.withLock { state -> Set<Int32> in
      if state.stopped { return [] }
      state.stopped = true
      return state.sockets
    }
    shutdown(listener, Int32(SHUT_RDWR))
    for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
  }

  private func acceptLoop() {
    defer { close(listener) }
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        return
      }
      let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = InterceptingProxy.loopback(port: targetPort)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      let registered = state.withLock { state -> Bool in
        guard !state.stopped, connected == 0 else { return false }
        state.sockets.formUnion([client, server])
        return true
      }
      guard registered else {
        close(client)
        close(server)
        if state.withLock({ $0.stopped }) { return }
        continue
      }
      let link = Link(client: client, server: server)
      Thread.detachNewThread { [self] in upstream(link) }
      Thread.detachNewThread { [self] in downstream(link) }
    }
  }

  /// One client connection and its connection to the server.
  private final class Link: @unchecked Sendable {
    let client: Int32
    let server: Int32
    /// Whether the request in flight is a batch push; the count of copying threads still running.
    let state = Mutex<(pushing: Bool, running: Int)>((false, 2))
    init(client: Int32, server: Int32) {
      self.client = client
      self.server = server
    }
  }

  private static let methods = ["GET ", "PUT ", "HEAD ", "POST ", "DELETE "].map { Array($0.utf8) }
  private static let push = Array("PUT /v1/batches/".utf8)

  private func upstream(_ link: Link) {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(link.client, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      let chunk = buffer[0..<count]
      if InterceptingProxy.methods.contains(where: { chunk.starts(with: $0) }) {
        link.state.withLock { $0.pushing = chunk.starts(with: InterceptingProxy.push) }
      }
      guard InterceptingProxy.sendAll(chunk, to: link.server) else { break }
    }
    finish(link)
  }

  private func downstream(_ link: Link) {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(link.server, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      if link.state.withLock({ $0.pushing }) {
        let action = state.withLock { state -> Mode in
          let mode = state.mode
          switch mode {
          case .pass: break
          case .holdPushAnswers: state.dropped += 1
          case .dropNextPushAnswer:
            state.dropped += 1
            state.mode = .pass
          }
          return mode
        }
        if case .holdPushAnswers = action { continue }
        if case .dropNextPushAnswer = action { break }
      }
      guard InterceptingProxy.sendAll(buffer[0..<count], to: link.client) else { break }
    }
    finish(link)
  }

  /// Ends both directions; the last thread out closes the sockets.
  private func finish(_ link: Link) {
    shutdown(link.client, Int32(SHUT_RDWR))
    shutdown(link.server, Int32(SHUT_RDWR))
    let last = link.state.withLock { state -> Bool in
      state.running -= 1
      return state.running == 0
    }
    guard last else { return }
    state.withLock { $0.sockets.subtract([link.client, link.server]) }
    close(link.client)
    close(link.server)
  }

  private static func sendAll(_ bytes: ArraySlice<UInt8>, to socket: Int32) -> Bool {
    var offset = bytes.startIndex
    while offset < bytes.endIndex {
      let sent = bytes[offset...].withUnsafeBytes {
        send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0, errno == EINTR { continue }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }
}

struct ProxyError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
