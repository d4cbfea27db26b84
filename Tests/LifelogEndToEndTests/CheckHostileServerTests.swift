import Foundation
import LifelogCLITestSupport
import LifelogSQLite
import LifelogTestSupport
import Testing

/// `lifelog check --remote` against a server that lies: well-formed HTTP carrying a page of changes
/// whose index does not match its bytes, or a cursor that never moves.
///
/// Each is a finding (exit 65), never a trap or a hang.
@Suite struct CheckHostileServerTests {
  let folder = TemporaryDirectory(prefix: "lifelog-check-hostile")
  static let remoteID = "0b7c9a52-3f8e-4a61-9d2e-5c1f7e8a4b30"

  /// A log with a remote `evil` at `url`, recorded as `remote add` would have left it.
  func machine(remoteAt url: String) throws -> SyncMachine {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("snack", "apple", "--at", "2026-12-01 10:00")
    let database = try Database(path: laptop.databasePath, mode: .readWrite)
    try database.execute(
      sql:
        "INSERT INTO sync_remote (name, url, remote_id, token) VALUES ('evil', '\(url)', '\(Self.remoteID)', 't')"
    )
    return laptop
  }

  static let manifest =
    #"{"lifelog":"remote","format":1,"remoteId":"\#(remoteID)","minVersion":"0.2.0","user":"alice"}"#
    + "\n"

  @Test(arguments: [
    (
      #"{"cursor":"1","more":false,"needsSnapshot":false,"batches":[{"device":"ab-cd","seq":1,"size":4096}]}"#,
      "lists a batch it does not hold"
    ),
    (
      #"{"cursor":"1","more":false,"needsSnapshot":false,"batches":[{"device":"ab-cd","seq":1,"size":-5}]}"#,
      "lists a batch it does not hold"
    ),
    (
      #"{"cursor":"1","more":false,"needsSnapshot":false,"batches":[{"device":"../../x","seq":1,"size":0}]}"#,
      "lists a batch it does not hold"
    ),
    (#"{"cursor":"../1?x=","more":false,"needsSnapshot":false,"batches":[]}"#, "cannot be read"),
    (#"{"cursor":"","more":true,"needsSnapshot":false,"batches":[]}"#, "stop moving forward"),
  ])
  func aLyingPageOfChangesIsAFindingNotACrash(index: String, finding: String) throws {
    let server = try LoopbackServer { request in
      if request.target.hasPrefix("/v1/manifest") {
        return LoopbackServer.response(status: "200 OK", body: Array(Self.manifest.utf8))
      }
      if request.target.hasPrefix("/v1/changes") {
        return LoopbackServer.response(status: "200 OK", body: Array((index + "\n").utf8))
      }
      return LoopbackServer.response(
        status: "404 Not Found",
        body: Array(#"{"error":{"code":"not_found","message":"none"}}"#.utf8))
    }
    defer { server.stop() }
    let laptop = try machine(remoteAt: server.url)
    let result = try laptop.run("check", "--remote", "evil", "--timeout", "20")
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stdout.split(separator: "\n").contains {
        $0.hasPrefix("remote 'evil': the server") && $0.contains(finding)
      },
      "\(result)")
  }
}
