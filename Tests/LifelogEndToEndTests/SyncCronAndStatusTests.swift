import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Synchronization
import Testing

/// `lifelog sync` as cron runs it (the lock, `--quiet`, no prompt, `--timeout`) and `lifelog status`
/// after syncs, with the real binary and a folder remote.
@Suite struct SyncCronAndStatusTests {
  let folder = TemporaryDirectory(prefix: "lifelog-sync-e2e")
  var remote: String { folder.file("usb/lifelog") }

  // MARK: - Cron

  @Test func aSecondSyncExitsAtOnceWith75WhileTheLockIsHeld() throws {
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "usb", remote)
    do {
      let lock = try SyncLock(path: laptop.databasePath + ".sync-lock")
      let start = Date()
      let busy = try laptop.run("sync")
      #expect(busy.exitCode == 75, "\(busy)")
      #expect(busy.stderr.contains("another sync is running"), "\(busy)")
      #expect(busy.stdout.isEmpty)
      #expect(secondsSince(start) < 3, "it does not wait for the lock")
      withExtendedLifetime(lock) {}
    }
    try laptop.expectSuccess("sync")
  }

  @Test func aSyncThatHoldsTheLockMakesTheNextOneExit75() throws {
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "usb", remote)
    _ = try laptop.addBacklog(5_000, label: "big")
    let first = try RunningLifelog(["sync"], environment: laptop.environment, capture: true)
    // Wait until the first sync holds its lock (an flock in /proc/locks with its pid; taking the
    // lock here to find out would make the first sync itself exit 75), then start a second one.
    let pid = first.process.processIdentifier
    var held = false
    let deadline = Date().addingTimeInterval(10)
    while !held && first.isRunning && Date() < deadline {
      let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
      held = locks.split(separator: "\n").contains {
        $0.contains(" FLOCK ") && $0.contains(" \(pid) ")
      }
      if !held { usleep(1_000) }
    }
    try #require(held, "the first sync never held the lock")
    let second = try laptop.run("sync")
    let stillRunning = first.isRunning
    #expect(first.wait().result.exitCode == 0)
    if stillRunning {
      #expect(second.exitCode == 75, "\(second)")
      #expect(second.stderr.contains("another sync is running"), "\(second)")
    }
  }

  @Test func quietPrintsNothingOnSuccess() throws {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("breakfast", "eggs")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    let quiet = try laptop.expectSuccess("sync", "--quiet")
    #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet)")
    let loud = try laptop.expectSuccess("sync", "usb")
    #expect(loud.stdout == "Synced 'usb': pulled 0 batches, pushed 0\n", "\(loud)")
    let quietByName = try laptop.expectSuccess("sync", "usb", "--quiet")
    #expect(quietByName.stdout.isEmpty && quietByName.stderr.isEmpty, "\(quietByName)")
  }

  @Test func syncNeverPromptsWhenStandardInputIsNotATerminal() throws {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("breakfast", "eggs")
    // Standard input is a pipe that stays open and never says anything, as under some schedulers:
    // a prompt would wait on it for ever.
    let silence = Pipe()
    let noRemote = try RunningLifelog(
      ["sync"], environment: laptop.environment, capture: true, standardInput: silence)
    let (unconfigured, hungNoRemote) = noRemote.wait(seconds: 20)
    #expect(!hungNoRemote, "sync without a remote waited on standard input")
    #expect(unconfigured.exitCode == 78, "\(unconfigured)")
    #expect(unconfigured.stderr.contains("lifelog remote add"), "\(unconfigured)")

    let addSilence = Pipe()
    let add = try RunningLifelog(
      ["remote", "add", "usb", remote], environment: laptop.environment, capture: true,
      standardInput: addSilence)
    let (added, hungAdd) = add.wait(seconds: 20)
    #expect(!hungAdd, "remote add waited on standard input")
    #expect(added.exitCode == 0 && added.stdout.contains("Created a new remote"), "\(added)")
    let moreSilence = Pipe()
    let sync = try RunningLifelog(
      ["sync"], environment: laptop.environment, capture: true, standardInput: moreSilence)
    let (result, hung) = sync.wait(seconds: 20)
    #expect(!hung, "sync waited on standard input")
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout == "Synced 'usb': pulled 0 batches, pushed 1\n", "\(result)")
    #expect(result.stderr.isEmpty, "\(result)")
    withExtendedLifetime((silence, addSilence, moreSilence)) {}
  }

  @Test func addsDuringASyncSucceedAndAreSentNextTime() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    try laptop.expectSuccess("remote", "add", "usb", remote)
    try desktop.expectSuccess("remote", "add", "usb", remote)
    // A backlog both ways, so the sync has a long pull and a long push.
    let backlog = Set(try laptop.addBacklog(4_000, label: "laptop"))
      .union(try desktop.addBacklog(4_000, label: "desktop", startingAt: 1_790_000_000))
    try desktop.expectSuccess("sync")

    let sync = try RunningLifelog(["sync"], environment: laptop.environment, capture: true)
    var during: [String] = []
    var index = 0
    while sync.isRunning && index < 50 {
      index += 1
      let result = try laptop.run("add", "snack", "during sync \(index)")
      #expect(result.exitCode == 0, "\(result)")
      #expect(!result.stderr.contains("locked"), "\(result)")
      if result.exitCode == 0 { during.append("during sync \(index)") }
    }
    let (syncResult, _) = sync.wait()
    #expect(syncResult.exitCode == 0, "\(syncResult)")
    #expect(!during.isEmpty, "no add ran while the sync did (it took too little time to test)")
    print("SyncEndToEndTests: \(during.count) adds while one sync ran")

    try laptop.syncUntilQuiet()
    try desktop.syncUntilQuiet()
    let desktopEntries = try desktop.entries()
    #expect(backlog.isSubset(of: desktopEntries.keys))
    let notes = desktopEntries.values.compactMap { $0["note"] as? String }.filter {
      $0.hasPrefix("during sync ")
    }
    #expect(notes.sorted() == during.sorted())
  }

  @Test func timeoutMustBeAWholeNumberOfSecondsAboveZero() throws {
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "usb", remote)
    for value in ["0", "abc", "1.5", ""] {
      let result = try laptop.run("sync", "--timeout", value)
      #expect(result.exitCode == 65, "--timeout '\(value)': \(result)")
      #expect(
        result.stderr.contains("--timeout") && result.stderr.contains("'\(value)'"), "\(result)")
    }
    try laptop.expectSuccess("sync", "--timeout", "30")
  }

  // MARK: - Status

  @Test func statusShowsTheDeviceTheRemotePendingRowsAndSkippedBatches() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    _ = try laptop.add("breakfast", "eggs", "--at", "2026-12-01 07:30")
    _ = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:30")

    let before = try laptop.expectSuccess("status")
    let device = try #require(
      try SyncMachine.objects(inJSON: laptop.expectSuccess("status", "--format", "json").stdout)
        .first)
    let deviceID = try #require(device["device"] as? String)
    #expect(UUID(uuidString: deviceID) != nil)
    #expect(before.stdout.hasPrefix("Device \(deviceID) (\(Self.hostName))\n"), "\(before)")
    #expect(before.stdout.contains("Pending: 2 changes not yet synced"), "\(before)")
    #expect(before.stdout.contains("No remotes"), "\(before)")

    try laptop.expectSuccess("remote", "add", "usb", remote)
    let unsynced = try laptop.expectSuccess("status")
    #expect(
      unsynced.stdout.contains("Remote 'usb': \(remote)\n  Last sync: never\n"), "\(unsynced)")

    let daysBefore = Self.warsawDates()
    try laptop.expectSuccess("sync")
    let daysAfter = Self.warsawDates()
    // The batch went out under this device's id.
    #expect(try FileManager.default.contentsOfDirectory(atPath: remote + "/devices") == [deviceID])
    _ = try laptop.add("dinner", "pasta", "--at", "2026-12-01 19:00")
    let synced = try laptop.expectSuccess("status")
    #expect(synced.stdout.contains("Pending: 1 change not yet synced"), "\(synced)")
    let lastSync = try #require(
      synced.stdout.split(separator: "\n").first { $0.contains("Last sync:") })
    #expect(lastSync.hasSuffix(" (ok)"), "\(synced)")
    #expect(
      daysBefore.union(daysAfter).contains { lastSync.contains($0) },
      "\(lastSync) is not today in Warsaw")
    #expect(
      synced.stdout.contains("  Unsent batches: 0\n  Skipped in the last sync: none\n"), "\(synced)"
    )

    // Two more batches; the first of them arrives cut short (a file-syncing tool still copying).
    try laptop.expectSuccess("sync")
    _ = try laptop.add("snack", "apple", "--at", "2026-12-01 16:00")
    try laptop.expectSuccess("sync")
    let batch2 = remote + "/devices/\(deviceID)/0000000002.batch"
    let good = try Data(contentsOf: URL(fileURLWithPath: batch2))
    try good.prefix(good.count * 2 / 3).write(to: URL(fileURLWithPath: batch2))

    try desktop.expectSuccess("remote", "add", "usb", remote)
    let damaged = try desktop.run("sync")
    #expect(damaged.exitCode == 0, "\(damaged)")
    #expect(
      damaged.stderr.contains("Warning: skipped devices/\(deviceID)/0000000002.batch"), "\(damaged)"
    )
    #expect(damaged.stderr.contains("read again"), "\(damaged)")
    // Batch 1 is in; batch 2 and the batch 3 behind it wait (a cursor never skips a gap).
    #expect(
      try desktop.entries().values.compactMap { $0["note"] as? String }.sorted() == [
        "eggs", "soup",
      ])
    let skipped = try desktop.expectSuccess("status")
    #expect(
      skipped.stdout.contains(
        "  Skipped in the last sync:\n    devices/\(deviceID)/0000000002.batch: "), "\(skipped)")
    #expect(skipped.stdout.contains("(ok)"), "\(skipped)")
    let skippedJSON = try #require(
      try SyncMachine.objects(inJSON: desktop.expectSuccess("status", "--format", "json").stdout)
        .first)
    let remotes = try #require(skippedJSON["remotes"] as? [[String: Any]])
    #expect((remotes.first?["skipped"] as? [String])?.count == 1, "\(skippedJSON)")

    // Still damaged: skipped again, nothing half-applied.
    let again = try desktop.run("sync")
    #expect(again.exitCode == 0 && again.stderr.contains("skipped"), "\(again)")

    // Repaired: the next sync reads it and the one behind it.
    try good.write(to: URL(fileURLWithPath: batch2))
    let repaired = try desktop.expectSuccess("sync")
    #expect(repaired.stdout.contains("pulled 2 batches"), "\(repaired)")
    #expect(repaired.stderr.isEmpty, "\(repaired)")
    #expect(
      try desktop.entries().values.compactMap { $0["note"] as? String }.sorted() == [
        "apple", "eggs", "pasta", "soup",
      ])
    let clean = try desktop.expectSuccess("status")
    #expect(clean.stdout.contains("Skipped in the last sync: none"), "\(clean)")
  }

  /// This machine's name, which a new log takes as its device name.
  static var hostName: String {
    var buffer = [CChar](repeating: 0, count: 256)
    gethostname(&buffer, buffer.count)
    return String(cString: buffer)
  }

  /// Today's date in Warsaw as `status` shows it (a set, in case midnight passes while testing).
  static func warsawDates() -> Set<String> {
    let formatter = DateFormatter()
    formatter.timeZone = TimeZone(identifier: "Europe/Warsaw")
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd"
    return [formatter.string(from: Date())]
  }
}
