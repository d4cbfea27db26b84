import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// A real `lifelog serve` whose SQLite store is on a 2 MiB tmpfs that fills up.
///
/// It answers 503 with `Retry-After` (a failure it gets past), the client asks again within
/// `--timeout`, and the sync succeeds once the operator frees space. Root only (the tmpfs), as
/// `make test` runs.
@Suite(
  .enabled(
    if: SmallDisk.canMount && !PostgresCluster.selected,
    "not root (cannot mount a tmpfs) or a PostgreSQL store was selected"))
struct ServerStorageFailureTests {
  let folder = TemporaryDirectory(prefix: "lifelog-server-full")

  @Test func aSyncSurvivesAServerWhoseDiskFillsUpOnce() throws {
    let disk = try SmallDisk()
    let server = try ServerProcess(dataFolder: disk.path + "/data")
    let token = try server.addUser("alice")
    let tokenPath = folder.file("alice.token")
    try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: tokenPath))
    let laptop = SyncMachine("laptop", in: folder)
    for index in 0..<20 {
      _ = try laptop.add(
        "snack", String(repeating: "apple \(index) ", count: 100), "--at", "2026-12-01 10:00")
    }
    try laptop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    try disk.fill()

    let sync = Process()
    sync.executableURL = URL(fileURLWithPath: LifelogProcess.binaryPath)
    sync.arguments = ["sync", "--timeout", "30"]
    sync.environment = laptop.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
    let errors = Pipe()
    sync.standardOutput = FileHandle.nullDevice
    sync.standardError = errors
    try sync.run()
    // The server refuses a write for want of space (its log says so), then space is freed.
    var refused = false
    for _ in 0..<600 where sync.isRunning {
      if server.log.contains(" storage: ") {
        refused = true
        break
      }
      usleep(50_000)
    }
    disk.empty()
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    sync.waitUntilExit()
    #expect(refused, "the server never reported a storage failure:\n\(server.log)")
    #expect(
      sync.terminationStatus == 0,
      "exit \(sync.terminationStatus): \(String(decoding: stderr, as: UTF8.self))\n\(server.log)")
    #expect(!server.log.contains(" error: "), "\(server.log)")

    let desktop = SyncMachine("desktop", in: folder)
    try desktop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    try desktop.expectSuccess("sync")
    let listed = try desktop.expectSuccess("list", "--from", "2026-12-01", "--format", "json")
    #expect(listed.stdout.components(separatedBy: "\"id\":").count - 1 == 20, "\(listed)")
  }

  /// A sync that merged what it pulled and then could not push says so, and never "Nothing
  /// was changed".
  @Test func aSyncThatFailsAfterMergingSaysWhatItMerged() throws {
    let disk = try SmallDisk()
    let server = try ServerProcess(dataFolder: disk.path + "/data")
    let token = try server.addUser("alice")
    let tokenPath = folder.file("alice.token")
    try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: tokenPath))
    let desktop = SyncMachine("desktop", in: folder)
    _ = try desktop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    try desktop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    try desktop.expectSuccess("sync")
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    for index in 0..<20 {
      _ = try laptop.add(
        "snack", String(repeating: "apple \(index) ", count: 100), "--at", "2026-12-01 10:00")
    }
    try disk.fill()
    let result = try laptop.run("sync", "--timeout", "3")
    disk.empty()
    #expect(result.exitCode == 69, "\(result)")
    #expect(
      result.stderr.contains(
        "; before that, the sync with 'home' pulled and merged 1 batch, which is kept"),
      "\(result)")
    #expect(!result.stderr.lowercased().contains("nothing was changed"), "\(result)")
    let listed = try laptop.expectSuccess("list", "--from", "2026-12-01", "--format", "json")
    #expect(listed.stdout.contains("\"soup\""), "\(listed)")
  }
}
