import Foundation
@preconcurrency import Glibc
import LifelogLoopback
import Synchronization

/// A TCP server on a free port of 127.0.0.1 that hands each connection to the test, for servers
/// that must answer bytes `lifelog serve` never would.
///
/// The tests of a hostile or broken server (a lying page of changes, a negative `Content-Length`,
/// an answer that never comes) need a socket that sends exactly what the test wrote. This is the
/// one socket/bind/accept loop they share; ``init(answer:)`` adds the reading of one HTTP request
/// per connection, which is how the client makes them. Each connection runs on its own thread, so
/// a connection held open does not keep the next one waiting. ``stop()`` (or the last reference
/// going) stops the listening; a connection in progress finishes on its own.
///
/// It is also how an exit test or a fuzz harness hands a canned answer to the client
/// (`LoopbackServer { _ in answer }`), so there is one test server, not two.
public final class LoopbackServer: @unchecked Sendable {
  /// The port it listens on, chosen by the kernel.
  public let port: Int
  /// `http://127.0.0.1:<port>`, as a remote's URL.
  public var url: String { "http://127.0.0.1:\(port)" }
  private let listener: Int32
  private let state: State

  /// What the accepting thread and the connections share with the server: not the server itself,
  /// so that letting go of the server stops it.
  private final class State: Sendable {
    let value = Mutex<(requests: [String], stopped: Bool)>(([], false))
  }

  /// Listens on a free port and gives each accepted connection to `connection`, which owns the
  /// socket from then on and must close it.
  ///
  /// - Throws: ``LoopbackServerError`` when the socket cannot be made or bound.
  public static func accepting(
    _ connection: @escaping @Sendable (Int32) -> Void
  ) throws -> LoopbackServer {
    try LoopbackServer(state: State(), connection: connection)
  }

  private init(state: State, connection: @escaping @Sendable (Int32) -> Void) throws {
    self.state = state
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw LoopbackServerError("socket") }
    var address = Self.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listening = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && Glibc.listen(descriptor, 64) == 0
          && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard listening else {
      let error = LoopbackServerError("bind/listen")
      close(descriptor)
      throw error
    }
    listener = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { Self.acceptLoop(descriptor, state, connection) }
  }

  /// Listens on a free port and answers each HTTP request with the bytes `answer` gives for it,
  /// sent as they are (status line and headers included), then closes the connection.
  ///
  /// The request's head and its body (by `Content-Length`, at most 1 MiB) are read first, and
  /// `METHOD target` is recorded in ``requests``. An empty answer sends nothing and holds the
  /// connection open, silent, until the client gives up: a server that accepts and never answers.
  /// After an answer the server waits for the client to close, so that closing with unread input
  /// cannot reset the connection before the client has read the answer.
  public convenience init(answer: @escaping @Sendable (LoopbackRequest) -> [UInt8]) throws {
    let state = State()
    try self.init(state: state) { client in
      defer { close(client) }
      guard let request = LoopbackRequest.read(from: client) else { return }
      state.value.withLock { $0.requests.append(request.line) }
      let bytes = answer(request)
      if !bytes.isEmpty {
        _ = LoopbackServer.sendAll(bytes[...], to: client)
        shutdown(client, Int32(SHUT_WR))
      }
      LoopbackServer.drain(client)
    }
  }

  deinit { stop() }

  /// `METHOD target` of every request read so far (with ``init(answer:)``).
  public var requests: [String] { state.value.withLock { $0.requests } }

  /// Stops listening; connections already accepted go on until they end.
  public func stop() {
    let first = state.value.withLock { state -> Bool in
      defer { state.stopped = true }
      return !state.stopped
    }
    if first { shutdown(listener, Int32(SHUT_RDWR)) }
  }

  /// An HTTP answer: status line, `Content-Type`, `Content-Length`, `Connection: close`, body.
  public static func response(
    status: String, contentType: String = "application/json", body: [UInt8]
  ) -> [UInt8] {
    let head =
      "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
      + "Connection: close\r\n\r\n"
    return Array(head.utf8) + body
  }

  /// Sends all of `bytes` (retrying short writes), without SIGPIPE; false when the peer has gone.
  public static func sendAll(_ bytes: ArraySlice<UInt8>, to socket: Int32) -> Bool {
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

  /// The IPv4 address 127.0.0.1:`port`.
  public static func loopback(port: Int) -> sockaddr_in { Loopback.address(port: port) }

  private static func acceptLoop(
    _ listener: Int32, _ state: State, _ handle: @escaping @Sendable (Int32) -> Void
  ) {
    defer { close(listener) }
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        return  // the listener was shut down
      }
      // Not inherited by a `lifelog` the test starts meanwhile, which would hold it open.
      _ = fcntl(client, F_SETFD, FD_CLOEXEC)
      if state.value.withLock({ $0.stopped }) {
        close(client)
        return
      }
      Thread.detachNewThread { handle(client) }
    }
  }

  /// Reads and drops what the client still sends until it closes (or is silent for 5 s).
  private static func drain(_ client: Int32) {
    var sink = [UInt8](repeating: 0, count: 4096)
    var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
    while poll(&poller, 1, 5000) > 0,
      sink.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0
    {}
  }
}

/// One HTTP request as ``LoopbackServer`` read it.
public struct LoopbackRequest: Sendable {
  /// The method: `GET`, `PUT` and the like.
  public let method: String
  /// The request target: the path with its query, `/v1/changes?after=10&…`.
  public let target: String
  /// The bytes after the head (as many as `Content-Length` said).
  public let body: [UInt8]

  /// `METHOD target`, the form ``LoopbackServer/requests`` records.
  public var line: String { "\(method) \(target)" }

  /// Reads one request from `socket`: nil when it breaks off, its head passes 1 MiB, its
  /// `Content-Length` is not a number up to 1 MiB, or its request line has no target.
  static func read(from socket: Int32) -> LoopbackRequest? {
    let limit = 1 << 20
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let end: [UInt8] = [13, 10, 13, 10]
    func receive() -> Bool {
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return false }
      bytes.append(contentsOf: chunk[0..<count])
      return true
    }
    while true {
      if let headEnd = bytes.indices.first(where: { bytes[$0...].starts(with: end) }) {
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        let lengths = head.split(separator: "\r\n").compactMap { line -> Int? in
          line.lowercased().hasPrefix("content-length:")
            ? Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? -1 : nil
        }
        let length = lengths.first ?? 0
        guard (0...limit).contains(length) else { return nil }
        while bytes.count - headEnd - 4 < length {
          guard receive() else { return nil }
        }
        let words = head.prefix { $0 != "\r" }.split(separator: " ")
        guard words.count >= 2 else { return nil }
        return LoopbackRequest(
          method: String(words[0]), target: String(words[1]),
          body: Array(bytes[(headEnd + 4)..<(headEnd + 4 + length)]))
      }
      guard bytes.count < limit, receive() else { return nil }
    }
  }
}

/// A socket call of ``LoopbackServer`` failed; the message names the call and `errno`'s text.
public struct LoopbackServerError: Error, CustomStringConvertible {
  public let description: String
  init(_ call: String) { description = "\(call): \(String(cString: strerror(errno)))" }
}
