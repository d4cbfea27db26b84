import LifelogCore
import LifelogSync
import LifelogTestSupport

/// The changes index: the input as the body of a `GET /v1/changes` answer, read by
/// ``HTTPRemote/pull(after:excluding:rowLimit:)`` (the index line, then each batch it lists).
///
/// The remote takes its answers only from a socket, so a loopback server in this process serves
/// the input (as a well-formed HTTP answer, so the HTTP parser is not what is fuzzed here).
enum ChangesFuzz {
  static let server = CannedAnswerServer()

  static func run(_ bytes: [UInt8]) {
    server.answer(
      Array("HTTP/1.1 200 OK\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n".utf8)
        + bytes)
    let remote = HTTPRemote(
      url: server.url, token: "fuzz", deadline: LogStore.systemMilliseconds() + 10_000)
    _ = try? remote.pull(after: "0", excluding: "fuzz-device", rowLimit: 5000)
  }
}
