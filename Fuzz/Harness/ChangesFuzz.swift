import LifelogCore
import LifelogSync
import LifelogTestSupport
import Synchronization

/// The changes index: the input as the body of a `GET /v1/changes` answer, read by
/// ``HTTPRemote/pull(after:excluding:rowLimit:)`` (the index line, then each batch it lists).
///
/// The remote takes its answers only from a socket, so a loopback server in this process serves
/// the input (as a well-formed HTTP answer, so the HTTP parser is not what is fuzzed here).
enum ChangesFuzz {
  /// What every request is answered with: the current input, as a well-formed answer.
  static let reply = Mutex<[UInt8]>([])
  static let server: LoopbackServer = {
    do {
      return try LoopbackServer { _ in reply.withLock { $0 } }
    } catch {
      fatalError("cannot listen on 127.0.0.1: \(error)")
    }
  }()

  static func run(_ bytes: [UInt8]) {
    reply.withLock {
      $0 =
        Array("HTTP/1.1 200 OK\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n".utf8)
        + bytes
    }
    let remote = HTTPRemote(
      url: server.url, token: "fuzz", deadline: LogStore.systemMilliseconds() + 10_000)
    _ = try? remote.pull(after: "0", excluding: "fuzz-device", rowLimit: 5000)
  }
}
