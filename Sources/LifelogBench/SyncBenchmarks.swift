@preconcurrency import Glibc
import LifelogCore

/// The sync figures: a first sync of 100,000 entries each way through a folder remote, a sync
/// with nothing to do, a sync of 10 new entries, and the peak memory of the big pull. Every one
/// is the whole `lifelog sync` process, as cron runs it.
extension BenchmarkSuite {
  static let syncRuns = 3
  static let quickSyncRuns = 20

  func runSync(report: (Figure) -> Void) throws {
    Log.info("sync: building \(Self.entryCount) sample entries")
    let entries = SampleLog.entries(
      count: Self.entryCount, endingAt: BenchmarkSuite.now() - 60, seed: 0x5EED)
    var pushTimes: [Double] = []
    var pullTimes: [Double] = []
    var peak = 0
    for run in 1...Self.syncRuns {
      let pusher = folder + "/sync-push-\(run).db"
      let puller = folder + "/sync-pull-\(run).db"
      let remote = folder + "/remote-\(run)"
      try buildLog(at: pusher, with: entries)
      try lifelogCommand(["remote", "add", "r", remote], database: pusher).check()
      try lifelogCommand(["remote", "add", "r", remote], database: puller).check()
      sync()
      pushTimes.append(try lifelogCommand(["sync", "--quiet"], database: pusher).timedRun())
      sync()
      let (seconds, bytes) = try timedFirstPull(puller)
      pullTimes.append(seconds)
      peak = max(peak, bytes)
      Log.info(
        "sync run \(run): push \(ms(pushTimes.last ?? 0)), pull \(ms(seconds)), peak \(bytes >> 20) MiB"
      )
    }
    report(
      Figure(
        name: "sync_push_100k_s", value: Samples(pushTimes).median, unit: "s", goal: .atMost(3),
        decimals: 3))
    report(
      Figure(
        name: "sync_pull_100k_s", value: Samples(pullTimes).median, unit: "s", goal: .atMost(3),
        decimals: 3))
    report(
      Figure(
        name: "sync_pull_peak_mb", value: Double(peak) / 1_048_576, unit: "MB", goal: .atMost(100),
        decimals: 1))

    let database = folder + "/sync-push-1.db"
    let noop = try latency(
      "sync_noop_100k_ms", of: lifelogCommand(["sync", "--quiet"], database: database),
      runs: Self.quickSyncRuns)
    report(
      Figure(
        name: "sync_noop_100k_ms", value: noop.median * 1e3, unit: "ms", goal: .atMost(20),
        decimals: 2))

    report(try tenNewSyncs("sync_10new_100k_ms", database: database, atMost: 50))
  }

  /// The median time of `lifelog sync` on `database` with 10 new entries added before each run:
  /// what cron pays after a few adds.
  func tenNewSyncs(_ name: String, database: String, atMost goal: Double) throws -> Figure {
    var tenNew: [Double] = []
    let command = lifelogCommand(["sync", "--quiet"], database: database)
    for round in 0..<Self.quickSyncRuns {
      let store = try LogStore(path: database)
      let fresh = SampleLog.entries(
        count: 10, endingAt: BenchmarkSuite.now(), seed: UInt64(round + 1))
      try store.add(contentsOf: fresh)
      tenNew.append(try command.timedRun())
    }
    let samples = Samples(tenNew)
    Log.info("\(name): median \(ms(samples.median)), max \(ms(samples.maximum))")
    return Figure(
      name: name, value: samples.median * 1e3, unit: "ms", goal: .atMost(goal), decimals: 2)
  }
}

extension ChildCommand {
  /// Runs the command once and fails unless it succeeds.
  func check() throws { _ = try timedRun() }
}

extension BenchmarkSuite {
  /// A first `lifelog sync --quiet` of `puller`, timed with its peak memory; throws unless the
  /// log then holds every sample entry (a folder remote's and an HTTP server's first pull alike).
  func timedFirstPull(_ puller: String) throws -> (seconds: Double, peakBytes: Int) {
    let run = try lifelogCommand(["sync", "--quiet"], database: puller).timedRunWithMemory()
    let count = try LogStore(path: puller).entryCount()
    guard count == Self.entryCount else {
      throw BenchmarkError(
        "the pulling log holds \(count) entries after its first sync, not \(Self.entryCount)")
    }
    return run
  }
}
