@preconcurrency import Glibc
import Synchronization

/// A one-thread server on 127.0.0.1 (a free port) that answers every request with the same bytes,
/// whatever they are: how a test or a fuzzer hands a broken or hostile HTTP answer to the client.
///
/// It reads the request head, writes the answer and closes the connection. It runs until the
/// process ends, so it is meant for exit tests (whose child process it dies with) and fuzzers.
public final class CannedAnswerServer: Sendable {
  public let port: Int
  /// `http://127.0.0.1:<port>`.
  public var url: String { "http://127.0.0.1:\(port)" }
  private let listener: Int32
  private let reply = Mutex<[UInt8]>([])

  /// Listens at once; every request is answered with `answer` until ``answer(_:)`` changes it.
  public init(answer: [UInt8] = []) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(listener, socketAddress, length) == 0 && listen(listener, 16) == 0
          && getsockname(listener, socketAddress, &length) == 0
      }
    }
    guard listener >= 0, bound else { fatalError("cannot listen on 127.0.0.1") }
    self.listener = listener
    reply.withLock { $0 = answer }
    port = Int(UInt16(bigEndian: address.sin_port))
    var thread = pthread_t()
    let context = Unmanaged.passRetained(self).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { context in
        guard let context else { return nil }
        Unmanaged<CannedAnswerServer>.fromOpaque(context).takeUnretainedValue().serve()
      }, context)
    guard started == 0 else { fatalError("cannot start the canned HTTP server's thread") }
  }

  /// Sets what every later request is answered with.
  public func answer(_ bytes: [UInt8]) {
    reply.withLock { $0 = bytes }
  }

  private func serve() -> Never {
    var request = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      var seen: [UInt8] = []
      while !seen.suffix(4).elementsEqual([13, 10, 13, 10]) && seen.count < request.count {
        let count = request.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        seen += request[0..<count]
      }
      let bytes = reply.withLock { $0 }
      var offset = 0
      while offset < bytes.count {
        let sent = bytes.withUnsafeBytes {
          send(
            connection, $0.baseAddress.map { $0 + offset }, $0.count - offset, Int32(MSG_NOSIGNAL))
        }
        guard sent > 0 else { break }
        offset += sent
      }
      close(connection)
    }
  }
}
