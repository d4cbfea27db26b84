import Foundation
import LifelogCLITestSupport
import LifelogSQLite
import LifelogTestSupport
import Testing

/// `lifelog check --remote` against a real `lifelog serve` on 127.0.0.1, with the real binary on
/// both ends; the server's own database is damaged through SQLite's C API.
@Suite struct CheckServerTests {
  let folder = TemporaryDirectory(prefix: "lifelog-check-http")

  /// A server with one user, and two machines that each pushed `batches` batches to it.
  func twoMachines(batches: Int) throws -> (ServerProcess, SyncMachine, SyncMachine) {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    let tokenPath = folder.file("alice.token")
    try Data((try server.addUser("alice") + "\n").utf8).write(to: URL(fileURLWithPath: tokenPath))
    let machines = [SyncMachine("laptop", in: folder), SyncMachine("desktop", in: folder)]
    for machine in machines {
      try machine.expectSuccess(
        "remote", "add", "home", server.baseURL, "--token-file", tokenPath, "--no-encrypt")
      for index in 0..<batches {
        _ = try machine.add(
          "lunch", "\(machine.name) soup \(index)", "--at", "2026-12-01 12:\(10 + index)")
        try machine.expectSuccess("sync")
      }
    }
    return (server, machines[0], machines[1])
  }

  @Test func aCleanServerRemoteIsReportedUndamagedAlsoAfterCompaction() throws {
    let (server, laptop, desktop) = try twoMachines(batches: 2)
    defer { server.terminate() }
    let result = try laptop.run("check", "--remote", "home")
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout.hasSuffix("; 4 batches and 0 snapshots on 'home'\n"), "\(result)")

    try desktop.expectSuccess("sync", "--compact")
    let compacted = try laptop.run("check", "--remote", "home", "--format", "json")
    #expect(compacted.exitCode == 0, "\(compacted)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(compacted.stdout.utf8)) as? [String: Any])
    let checked = try #require(object["checked"] as? [String: Int], "\(object)")
    #expect(checked["remoteSnapshots"] == 1 && checked["remoteBatches"] == 2, "\(checked)")
    #expect(try desktop.run("check", "--remote", "home").exitCode == 0)
  }

  @Test(
    .enabled(if: !PostgresCluster.selected, "the damage is done to server.db, the SQLite store"))
  func aBatchRemovedOrDamagedOnTheServerIsNamed() throws {
    let (server, laptop, desktop) = try twoMachines(batches: 3)
    defer { server.terminate() }
    let laptopID = try CheckCommandTests.deviceID(of: laptop)
    let desktopID = try CheckCommandTests.deviceID(of: desktop)
    // A careless operator, or a disk, loses laptop's batch 2 and damages desktop's batch 1.
    let database = try Database(
      path: folder.file("data/server.db"), mode: .readWrite, busyTimeoutMilliseconds: 10_000)
    try database.execute(
      sql: """
        DELETE FROM batches WHERE device = '\(laptopID)' AND seq = 2;
        UPDATE batches SET bytes = CAST('{"lifelog":"batch"}' || char(10) AS BLOB) WHERE device = '\(desktopID)' AND seq = 1;
        """)

    let result = try laptop.run("check", "--remote", "home")
    #expect(result.exitCode == 65, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix("remote 'home': batch 2 that this machine pushed is not there")
      }, "\(result)")
    #expect(
      lines.contains { $0.hasPrefix("remote 'home': batch \(desktopID)/1: it does not decode: ") },
      "\(result)")
    #expect(lines.last?.hasPrefix("Damage found: 2 problems;") == true, "\(result)")

    // Seen from the other machine, laptop's batch 2 is a gap.
    let other = try desktop.run("check", "--remote", "home")
    #expect(other.exitCode == 65, "\(other)")
    #expect(other.stdout.contains("batch 2 of device \(laptopID) is missing"), "\(other)")
  }

  @Test func anEncryptedServerRemoteIsOpenedWithTheKeptKey() throws {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    defer { server.terminate() }
    let tokenPath = folder.file("bob.token")
    try Data((try server.addUser("bob") + "\n").utf8).write(to: URL(fileURLWithPath: tokenPath))
    let passphrase = folder.file("passphrase")
    try Data("correct horse battery staple\n".utf8).write(to: URL(fileURLWithPath: passphrase))
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess(
      "remote", "add", "home", server.baseURL, "--token-file", tokenPath, "--encrypt",
      "--passphrase-file",
      passphrase)
    for note in ["quince", "pear"] {
      _ = try laptop.add("snack", note, "--at", "2026-12-01 10:00")
      try laptop.expectSuccess("sync")
    }
    let result = try laptop.run("check", "--remote", "home")
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout.hasSuffix("; 2 batches and 0 snapshots on 'home'\n"), "\(result)")
  }

  @Test func anUnreachableServerExits69() throws {
    let (server, laptop, _) = try twoMachines(batches: 1)
    server.terminate()
    let result = try laptop.run("check", "--remote", "home", "--timeout", "1")
    #expect(result.exitCode == 69, "\(result)")
    #expect(
      result.stderr.hasPrefix("Error: The remote '\(server.baseURL)' is unavailable"), "\(result)")
    #expect(result.stdout.hasSuffix("; 'home' could not be checked\n"), "\(result)")
  }
}
