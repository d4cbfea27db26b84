import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// Crafted and broken HTTP answers, from a real socket on 127.0.0.1, to the real `lifelog`
/// binary: `sync` and `remote add` fail with exit 69 and a message that says what was wrong,
/// never a trap (which would end with a signal), and the local log is left as it was.
@Suite struct HostileServerTests {
  let folder = TemporaryDirectory(prefix: "lifelog-hostile-server")

  /// One crafted answer, and what the error must say.
  struct Answer: CustomTestStringConvertible, Sendable {
    let name: String
    let request: String
    let bytes: [UInt8]
    let message: String
    /// Whether the client retries it (a cut-off answer is a network failure) until `--timeout`.
    var retried = false
    var testDescription: String { name }

    static let changes = "GET /v1/changes"

    static func head(_ status: String, _ headers: String) -> String {
      "HTTP/1.1 \(status)\r\n\(headers)\r\n"
    }

    static let all: [Answer] = [
      Answer(
        name: "negative Content-Length", request: changes,
        bytes: Array((head("200 OK", "Content-Length: -1\r\n") + "{}").utf8),
        message:
          "its answer to GET /v1/changes cannot be used: the answer's Content-Length is not a number of bytes"
      ),
      Answer(
        name: "huge Content-Length", request: changes,
        bytes: Array((head("200 OK", "Content-Length: 99999999999999999999\r\n") + "{}").utf8),
        message:
          "cannot be used: the answer is larger than the 1082130432 bytes lifelog accepts here"),
      Answer(
        name: "negative chunk size", request: changes,
        bytes: Array(
          (head("200 OK", "Transfer-Encoding: chunked\r\n") + "-5\r\nhello\r\n0\r\n\r\n").utf8),
        message: "cannot be used: a chunk size of the answer is not hexadecimal"),
      Answer(
        name: "chunk size past Int.max", request: changes,
        bytes: Array(
          (head("200 OK", "Transfer-Encoding: chunked\r\n") + "ffffffffffffffffffffffff\r\nx\r\n")
            .utf8),
        message: "cannot be used: the answer is larger than"),
      Answer(
        name: "chunk cut off", request: changes,
        bytes: Array((head("200 OK", "Transfer-Encoding: chunked\r\n") + "400\r\nabc").utf8),
        message: "could not be reached in time (the answer was cut off between its chunks)",
        retried: true),
      Answer(
        name: "endless header line", request: changes,
        bytes: Array(
          (head("200 OK", "X-Junk: " + String(repeating: "a", count: 100_000) + "\r\n")).utf8),
        message: "cannot be used: a line of the answer is longer than 8192 bytes"),
      Answer(
        name: "manifest past its size cap", request: "GET /v1/manifest",
        bytes: Array((head("200 OK", "") + String(repeating: " ", count: 2 << 20)).utf8),
        message:
          "its answer to GET /v1/manifest cannot be used: the answer is larger than the 1048576 bytes"
      ),
      Answer(
        name: "Retry-After of 10^16 seconds", request: changes,
        bytes: Array(
          head("503 Service Unavailable", "Retry-After: 10000000000000000\r\nContent-Length: 0\r\n")
            .utf8),
        message: "could not be reached in time (the server is busy (503))"),
      Answer(
        name: "negative Retry-After", request: changes,
        bytes: Array(
          head("429 Too Many Requests", "Retry-After: -3\r\nContent-Length: 0\r\n").utf8),
        message: "could not be reached in time (the server is busy (429))", retried: true),
      Answer(
        name: "a server that keeps failing (500)", request: changes,
        bytes: Array(head("500 Internal Server Error", "Content-Length: 0\r\n").utf8),
        message: "the server kept failing until the timeout (its last answer: 500)", retried: true),
      Answer(
        name: "a gateway that keeps failing (502)", request: changes,
        bytes: Array(head("502 Bad Gateway", "Content-Length: 0\r\n").utf8),
        message: "the server kept failing until the timeout (its last answer: 502)", retried: true),
      Answer(
        name: "Retry-After as a date gone by", request: changes,
        bytes: Array(
          head(
            "429 Too Many Requests",
            "Retry-After: Sun, 06 Nov 1994 08:49:37 GMT\r\nContent-Length: 0\r\n"
          ).utf8),
        message: "could not be reached in time (the server is busy (429))", retried: true),
      Answer(
        name: "redirect", request: changes,
        bytes: Array(
          head("302 Found", "Location: http://127.0.0.1:9/steal\r\nContent-Length: 0\r\n").utf8),
        message:
          "the server answered 302, a redirect to 'http://127.0.0.1:9/steal'; lifelog does not follow redirects"
      ),
      Answer(
        name: "silence", request: changes, bytes: [],
        message: "could not be reached in time (no complete answer before the deadline)",
        retried: true),
      Answer(
        name: "not HTTP", request: changes, bytes: Array("SSH-2.0-OpenSSH_9.2\r\n\r\n".utf8),
        message: "cannot be used: the answer does not start with an HTTP/1.x status line"),
    ]
  }

  /// The entries, the rows waiting to be sent and the remotes' names: what a failed command must
  /// not change (a failed sync does record its outcome).
  func localState(_ machine: SyncMachine) throws -> [String] {
    let status = try machine.expectSuccess("status").stdout.split(separator: "\n")
      .filter { $0.hasPrefix("Pending") || $0.hasPrefix("Remote ") || $0.hasPrefix("No remotes") }
    return try machine.sortedListLines() + status.map(String.init)
  }

  @Test(arguments: Answer.all) func aCraftedAnswerFailsSyncAndRemoteAddWith69AndChangesNothing(
    _ answer: Answer
  )
    throws
  {
    let server = try HostileHTTPServer()
    defer { server.stop() }
    let tokenPath = folder.file("token")
    try Data("t0ken\n".utf8).write(to: URL(fileURLWithPath: tokenPath))
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "home", server.url, "--token-file", tokenPath)
    _ = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    let before = try localState(laptop)

    server.answer(answer.request, with: answer.bytes)
    let start = Date()
    let sync = try laptop.run("sync", "--timeout", "2")
    #expect(sync.exitCode == 69, "\(sync)")
    #expect(sync.stderr.hasPrefix("Error: The remote '\(server.url)' is unavailable: "), "\(sync)")
    // A retried answer ends in whatever the last try met (the deadline may cut that one short).
    let endings =
      answer.retried ? ["could not be reached in time (", answer.message] : [answer.message]
    #expect(endings.contains { sync.stderr.contains($0) }, "\(sync)")
    #expect(secondsSince(start) < 30, "took \(secondsSince(start)) s with --timeout 2")
    #expect(try localState(laptop) == before)
    #expect(
      !server.requests.contains { $0.hasPrefix("PUT ") },
      "pushed after a bad answer: \(server.requests)")

    guard !answer.retried else { return }  // remote add waits 10 s for those; sync showed the rule
    let desktop = SyncMachine("desktop", in: folder)
    let empty = try localState(desktop)
    let add = try desktop.run("remote", "add", "home", server.url, "--token-file", tokenPath)
    #expect(add.exitCode == 69, "\(add)")
    #expect(add.stderr.contains(answer.message), "\(add)")
    #expect(try localState(desktop) == empty)
  }

  /// The https path goes through libcurl; `LIFELOG_CA_FILE` sends an http:// remote there too, so
  /// the same hostile server tests its size cap, its refusal to follow redirects and Retry-After.
  @Test func theLibcurlPathHasTheSameBounds() throws {
    let server = try HostileHTTPServer()
    defer { server.stop() }
    let tokenPath = folder.file("token")
    try Data("t0ken\n".utf8).write(to: URL(fileURLWithPath: tokenPath))
    let laptop = SyncMachine("laptop", in: folder)
    let curl = laptop.environment.merging(["LIFELOG_CA_FILE": "/etc/ssl/certs/ca-certificates.crt"])
    { $1 }
    let added = try LifelogProcess.run(
      ["remote", "add", "home", server.url, "--token-file", tokenPath], environment: curl)
    try #require(added.exitCode == 0, "\(added)")
    let before = try localState(laptop)
    let cases: [(String, [UInt8], String)] = [
      (
        "GET /v1/manifest",
        Array((Answer.head("200 OK", "") + String(repeating: " ", count: 2 << 20)).utf8),
        "cannot be used: the answer is larger than the 1048576 bytes lifelog accepts here"
      ),
      (
        "GET /v1/manifest", Array((Answer.head("200 OK", "Content-Length: 99999999999\r\n")).utf8),
        "cannot be used: the answer is larger than the 1048576 bytes"
      ),
      (
        "GET /v1/changes",
        Array(
          Answer.head("302 Found", "Location: http://127.0.0.1:9/\r\nContent-Length: 0\r\n").utf8),
        "a redirect to 'http://127.0.0.1:9/'; lifelog does not follow redirects"
      ),
      (
        "GET /v1/changes",
        Array(
          Answer.head(
            "503 Service Unavailable", "Retry-After: 10000000000000000\r\nContent-Length: 0\r\n"
          ).utf8),
        "could not be reached in time (the server is busy (503))"
      ),
    ]
    for (request, bytes, message) in cases {
      server.answer(request, with: bytes)
      let sync = try LifelogProcess.run(["sync", "--timeout", "3"], environment: curl)
      #expect(sync.exitCode == 69, "\(request): \(sync)")
      #expect(sync.stderr.contains(message), "\(request): \(sync)")
      #expect(try localState(laptop) == before)
    }
  }
}
