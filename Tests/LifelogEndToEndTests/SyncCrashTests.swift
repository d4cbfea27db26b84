import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogCore
import LifelogTestSupport
import Testing

/// `kill -9` of the real `lifelog sync` at random moments, on both sides of a folder remote: the
/// logs must still converge with every entry once (docs/design.md §4: "a sync that dies midway
/// resends the same bytes under the same name").
@Suite struct SyncCrashTests {
  /// Syncs killed while running in a normal run; `SYNC_CRASH_KILLS` asks for more.
  static let kills = ProcessInfo.processInfo.environment["SYNC_CRASH_KILLS"].flatMap(Int.init) ?? 60

  @Test func killingSyncAtRandomMomentsNeverLosesOrDuplicatesAnEntry() throws {
    let seed = SeededGenerator.seed()
    print("SyncCrashTests: seed \(seed) (replay with SYNC_CRASH_SEED=\(seed)), \(Self.kills) kills")
    var random = SeededGenerator(seed: seed)
    let started = Date()
    let folder = TemporaryDirectory(prefix: "lifelog-crash")
    let pusher = SyncMachine("pusher", in: folder)
    let puller = SyncMachine("puller", in: folder)
    let remote = folder.file("remote")

    // The backlog: thousands of rows, most on the pushing machine, made before the remote existed.
    var created = Set(try pusher.addBacklog(3_000, label: "pusher backlog"))
    created.formUnion(
      try puller.addBacklog(300, label: "puller backlog", startingAt: 1_790_000_000))
    try pusher.expectSuccess("remote", "add", "shared", remote)
    try puller.expectSuccess("remote", "add", "shared", remote)

    // Kill delays are drawn below a bound per machine that follows how long its syncs take: it
    // grows while every run is killed (so a long pull still gets through now and then) and drops
    // to just above a run that finished. Kills so land anywhere from start-up to the last write.
    var bound: [String: Double] = [pusher.name: 0.15, puller.name: 0.15]
    var killed = 0
    var finished = 0
    var compacting = 0
    var trial = 0
    // Trials until that many syncs were killed mid-run (a sync that finished first does not count).
    while killed < Self.kills && trial < Self.kills * 5 {
      defer { trial += 1 }
      // Alternate: the pushing machine's sync, then the pulling machine's.
      let machine = trial.isMultiple(of: 2) ? pusher : puller
      // Keep a backlog on both sides, so every run has something to push and something to pull;
      // halfway, thousands more at once, to be pushed and pulled under a snapshot.
      if trial == Self.kills / 2 {
        created.formUnion(
          try pusher.addBacklog(1_500, label: "pusher second backlog", startingAt: 1_820_000_000))
        created.formUnion(
          try puller.addBacklog(500, label: "puller second backlog", startingAt: 1_830_000_000))
      }
      if trial.isMultiple(of: 2) {
        created.formUnion(
          try pusher.addBacklog(
            40, label: "pusher trial \(trial)", startingAt: 1_800_000_000 + Int64(trial) * 10_000))
      } else if trial % 4 == 1 {
        created.formUnion(
          try puller.addBacklog(
            10, label: "puller trial \(trial)", startingAt: 1_810_000_000 + Int64(trial) * 10_000))
      }
      var arguments = ["sync", "--quiet"]
      if Int.random(in: 0..<6, using: &random) == 0 {
        arguments.append("--compact")
        compacting += 1
      }
      let delay = Double.random(in: 0...(bound[machine.name] ?? 0.15), using: &random)
      let start = Date()
      let sync = try RunningLifelog(arguments, environment: machine.environment)
      usleep(useconds_t(delay * 1_000_000))
      let wasRunning = sync.isRunning
      sync.kill()
      let (result, _) = sync.wait()
      if wasRunning && result.exitCode == 128 + SIGKILL {
        killed += 1
        bound[machine.name] = (bound[machine.name] ?? 0.15) * 1.3
      } else {
        finished += 1
        #expect(result.exitCode == 0, "trial \(trial) on \(machine.name) finished with \(result)")
        bound[machine.name] = secondsSince(start) * 1.2
      }
      if ProcessInfo.processInfo.environment["SYNC_CRASH_VERBOSE"] != nil {
        let files = (FileManager.default.enumerator(atPath: remote)?.allObjects as? [String]) ?? []
        let batches = files.filter { $0.hasSuffix(".batch") }.count
        let snapshots = files.filter { $0.hasSuffix(".snapshot") }.count
        let temporaries = files.filter { $0.contains(".tmp-") }.count
        print(
          "\(Int(secondsSince(started))) s: trial \(trial) \(machine.name) \(arguments.dropFirst(2)) "
            + "delay \(Int(delay * 1000)) ms, next bound \(Int((bound[machine.name] ?? 0) * 1000)) ms: "
            + "exit \(result.exitCode); remote: \(batches) batches, \(snapshots) snapshots, \(temporaries) temporaries"
        )
      }
    }
    print(
      "SyncCrashTests: \(killed) syncs killed, \(finished) finished before the kill, \(compacting) with --compact; "
        + "\(created.count) entries")
    #expect(killed == Self.kills, "only \(killed) of \(trial) trials killed a running sync")
    print("SyncCrashTests: trials took \(Int(secondsSince(started))) s")

    // Normal syncs until both are quiet, then a third machine joins.
    for _ in 0..<3 {
      try pusher.syncUntilQuiet()
      try puller.syncUntilQuiet()
    }
    let newcomer = SyncMachine("newcomer", in: folder)
    try newcomer.expectSuccess("remote", "add", "shared", remote)
    try newcomer.syncUntilQuiet()

    for machine in [pusher, puller, newcomer] {
      let entries = try machine.entries()
      #expect(
        entries.count == created.count,
        "\(machine.name) has \(entries.count) entries, \(created.count) were made")
      let lost = created.subtracting(entries.keys).count
      let unexpected = Set(entries.keys).subtracting(created).count
      #expect(
        Set(entries.keys) == created, "\(machine.name): lost \(lost), unexpected \(unexpected)")
      let status = try machine.expectSuccess("status")
      #expect(
        status.stdout.contains("Pending: 0 changes not yet synced"),
        "\(machine.name): \(status.stdout)")
      #expect(status.stdout.contains("Unsent batches: 0"), "\(machine.name): \(status.stdout)")
    }
    let pusherLines = try pusher.sortedListLines()
    #expect(pusherLines.count == created.count)
    #expect(pusherLines == (try puller.sortedListLines()), "the two logs hold different entries")
    #expect(pusherLines == (try newcomer.sortedListLines()), "the newcomer holds different entries")
    print("SyncCrashTests: done in \(Int(secondsSince(started))) s")
  }
}
