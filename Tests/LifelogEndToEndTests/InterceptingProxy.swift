import Foundation
@preconcurrency import Glibc
import LifelogTestSupport
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
    /// Every request is answered these bytes by the proxy itself (a hostile server's words);
    /// nothing reaches the server.
    case answer([UInt8])
  }

  /// Where the proxy listens, on 127.0.0.1.
  var port: Int { listener.port }
  var url: String { listener.url }
  private let relay: Relay
  private let listener: LoopbackServer

  var mode: Mode {
    get { relay.state.withLock { $0.mode } }
    set { relay.state.withLock { $0.mode = newValue } }
  }

  /// How many push answers were held back or dropped so far.
  var interceptedAnswers: Int { relay.state.withLock { $0.dropped } }

  init(targetPort: Int) throws {
    let relay = Relay(targetPort: targetPort)
    self.relay = relay
    listener = try LoopbackServer.accepting { client in relay.relay(client) }
  }

  deinit { stop() }

  /// Stops listening and closes every connection.
  func stop() {
    let sockets = relay.state.withLock { state -> Set<Int32> in
      if state.stopped { return [] }
      state.stopped = true
      return state.sockets
    }
    listener.stop()
    for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
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

  /// The copying between clients and the server, apart from the proxy so that the listener's
  /// threads do not keep the proxy alive.
  private final class Relay: Sendable {
    let targetPort: Int
    let state = Mutex<(mode: Mode, sockets: Set<Int32>, dropped: Int, stopped: Bool)>(
      (.pass, [], 0, false))

    init(targetPort: Int) { self.targetPort = targetPort }

    /// Connects `client` to the server and copies bytes both ways until either side ends.
    func relay(_ client: Int32) {
      if case .answer(let bytes) = state.withLock({ $0.mode }) {
        InterceptingProxy.answer(client, with: bytes)
        return
      }
      let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      var address = LoopbackServer.loopback(port: targetPort)
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
        return
      }
      let link = Link(client: client, server: server)
      Thread.detachNewThread { [self] in upstream(link) }
      downstream(link)
    }

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
        guard LoopbackServer.sendAll(chunk, to: link.server) else { break }
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
            case .pass, .answer: break
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
        guard LoopbackServer.sendAll(buffer[0..<count], to: link.client) else { break }
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
  }

  /// Reads one request's head from `client`, answers `bytes`, and closes once the client has
  /// stopped sending (what it sends is read and dropped, for at most 2 s).
  private static func answer(_ client: Int32, with bytes: [UInt8]) {
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    while head.count < 1 << 16, !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
      let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, 1, 0) }
      guard count > 0 else { break }
      head.append(buffer[0])
    }
    _ = LoopbackServer.sendAll(bytes[...], to: client)
    shutdown(client, Int32(SHUT_WR))
    while buffer.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0 {}
    close(client)
  }
}
