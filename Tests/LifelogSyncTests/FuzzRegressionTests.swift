@preconcurrency import Glibc
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Testing

/// Inputs the fuzzers found (docs/testing.md, `make fuzz`), fed to the client the way a hostile
/// server would: each must end in a thrown error, never a trap.
///
/// A trap would end the whole test process, so each input is read in an exit test (a child
/// process) that must exit normally (the findings are numbered as in docs/testing.md).
@Suite struct FuzzRegressionTests {
  /// HTTP answers that trapped `PlainHTTPClient` (owner: the HTTP client).
  static let brokenAnswers: [String] = [
    // F1 (`http` harness): a 1-byte chunk without its CRLF ran the chunk decoder past the end.
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nRetry-After: 2\r\n\r\n4\r\nabcd\r\n1\r\n\r\n",
    // F2 (`http` harness, minimized): a negative chunk size.
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-4\r\nabcd\r\n0\r\n\r\n",
    // Issue 12 item 5, replayed through the `http` harness: a chunk size that overflows `Int`…
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabcd\r\n0\r\n\r\n",
    // …and a negative Content-Length.
    "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n{}",
  ]

  @Test(arguments: brokenAnswers)
  func aBrokenHTTPAnswerIsAnErrorNotACrash(answer: String) async {
    await #expect(processExitsWith: .success) { [answer] in
      try FuzzRegressionTests.expectManifestRefused(answer: answer)
    }
  }

  /// A page of changes whose index lists a batch of size -1, as the `changes` fuzz harness found
  /// it: the HTTP remote's changes index must refuse it.
  static let negativeSizePage =
    "{\"cursor\":\"1\",\"more\":false,\"batches\":[{\"device\":\"d\",\"seq\":1,\"cursor\":1,"
    + "\"rows\":1,\"size\":-1}]}\n"

  @Test func anIndexThatListsABatchOfNegativeSizeIsAnErrorNotACrash() async {
    await #expect(processExitsWith: .success) {
      let body = FuzzRegressionTests.negativeSizePage
      let answer = Array(
        "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
      let server = try LoopbackServer { _ in answer }
      let remote = HTTPRemote(
        url: server.url, token: "fuzz", deadline: LogStore.systemMilliseconds() + 2_000)
      if (try? remote.pull(after: "0", excluding: "me", rowLimit: 100)) != nil { exit(3) }
    }
  }

  /// Serves `answer` to ``HTTPRemote/manifest()`` and exits with 3 when it is taken as a manifest.
  static func expectManifestRefused(answer: String) throws {
    let bytes = Array(answer.utf8)
    let server = try LoopbackServer { _ in bytes }
    let remote = HTTPRemote(
      url: server.url, token: "fuzz", deadline: LogStore.systemMilliseconds() + 2_000)
    if (try? remote.manifest()) != nil { exit(3) }
  }
}
