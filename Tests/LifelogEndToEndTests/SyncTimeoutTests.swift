import Foundation
import LifelogCLITestSupport
import LifelogSQLite
import LifelogTestSupport
import Testing

/// `sync --timeout` against a server that accepts and never answers: the sync ends with exit 69
/// by its deadline, from a command and inside `lifelog shell`, whose later lines still run (the
/// sync used to have a watchdog that ended the whole process).
@Suite struct SyncTimeoutTests {
  let folder = TemporaryDirectory(prefix: "lifelog-sync-timeout")
  static let remoteID = "5d0c2a8e-71f4-4b39-a6e2-0f9b3c8d1e47"
  static let manifest =
    #"{"lifelog":"remote","format":1,"remoteId":"\#(remoteID)","#
    + #""minVersion":"0.2.0","user":"alice"}"# + "\n"

  /// A server that answers its manifest and leaves every other request unanswered, connected.
  func silentServer() throws -> LoopbackServer {
    try LoopbackServer { request in
      guard request.target.hasPrefix("/v1/manifest") else { return [] }  // never answered
      return LoopbackServer.response(status: "200 OK", body: Array(Self.manifest.utf8))
    }
  }

  /// A log with a remote `silent` at `url`, recorded as `remote add` would have left it.
  func machine(remoteAt url: String) throws -> SyncMachine {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("snack", "apple", "--at", "2026-12-01 10:00")
    let database = try Database(path: laptop.databasePath, mode: .readWrite)
    try database.execute(
      sql: "INSERT INTO sync_remote (name, url, remote_id, token) VALUES ('silent', ?, ?, 't')",
      arguments: [url, Self.remoteID])
    return laptop
  }

  @Test func aSyncWithAServerThatNeverAnswersExits69() throws {
    let server = try silentServer()
    defer { server.stop() }
    let laptop = try machine(remoteAt: server.url)
    let result = try laptop.run("sync", "--timeout", "2")
    #expect(result.exitCode == 69, "\(result)")
    #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains(server.url), "\(result)")
    #expect(
      server.requests.contains { !$0.hasPrefix("GET /v1/manifest") },
      "it hung on a request after the manifest: \(server.requests)")
    let status = try laptop.expectSuccess("status")
    #expect(status.stdout.contains("(failed: "), "the outcome was recorded: \(status)")
  }

  @Test func aTimedOutSyncInTheShellEndsTheSyncAndTheShellGoesOn() throws {
    let server = try silentServer()
    defer { server.stop() }
    let laptop = try machine(remoteAt: server.url)
    let script = """
      sync --timeout 2
      add snack pear --at '2026-12-01 11:00'
      list --format csv
      """
    let result = try LifelogProcess.run(["shell"], environment: laptop.environment, input: script)
    #expect(result.exitCode == 69, "the sync was the last line that failed: \(result)")
    #expect(result.stderr.contains("Error: ") && result.stderr.contains(server.url), "\(result)")
    #expect(result.stdout.contains("Added "), "the line after the sync ran: \(result)")
    #expect(result.stdout.contains(",pear,"), "and the one after it: \(result)")
  }
}
