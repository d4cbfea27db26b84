@preconcurrency import Glibc
import LifelogCore

/// The end-to-end encryption figures (docs/security.md): what sealing costs the first sync of
/// 100,000 entries (push, then a second machine's pull) through a folder remote, and what joining
/// an encrypted remote costs beyond joining a plain one (Argon2id with the real parameters).
extension BenchmarkSuite {
  static let cryptoRuns = 5
  static let joinRuns = 5
  static let passphrase = ["LIFELOG_PASSPHRASE": "benchmark passphrase"]

  func runCrypto(report: (Figure) -> Void) throws {
    Log.info("crypto: building \(Self.entryCount) sample entries")
    let entries = SampleLog.entries(
      count: Self.entryCount, endingAt: BenchmarkSuite.now() - 60, seed: 0xC0DE)
    var plain: [Double] = []
    var sealed: [Double] = []
    var plainCPU: [Double] = []
    var sealedCPU: [Double] = []
    for run in 1...Self.cryptoRuns {
      // Alternated, so a machine that slows down during the run does not favour either.
      let plainRun = try firstSync(of: entries, run: run, encrypted: false)
      let sealedRun = try firstSync(of: entries, run: run, encrypted: true)
      plain.append(plainRun.seconds)
      sealed.append(sealedRun.seconds)
      plainCPU.append(plainRun.cpuSeconds)
      sealedCPU.append(sealedRun.cpuSeconds)
      Log.info(
        "crypto run \(run): plain \(ms(plainRun.seconds)) (CPU \(ms(plainRun.cpuSeconds))), "
          + "encrypted \(ms(sealedRun.seconds)) (CPU \(ms(sealedRun.cpuSeconds)))")
    }
    let plainMedian = Samples(plain).median
    let sealedMedian = Samples(sealed).median
    let cpuOverhead =
      (Samples(sealedCPU).median - Samples(plainCPU).median) / Samples(plainCPU).median * 100
    report(
      Figure(
        name: "sync_first_100k_plain_s", value: plainMedian, unit: "s", goal: .atMost(6),
        decimals: 3))
    report(
      Figure(
        name: "sync_first_100k_encrypted_s", value: sealedMedian, unit: "s", goal: .atMost(6.9),
        decimals: 3))
    report(
      Figure(
        name: "sync_encryption_overhead_pct",
        value: (sealedMedian - plainMedian) / plainMedian * 100, unit: "%",
        goal: .atMost(15), decimals: 1))
    // The same in CPU time, which other work on the machine hardly moves: what sealing costs.
    report(
      Figure(
        name: "sync_encryption_cpu_overhead_pct", value: cpuOverhead, unit: "%", goal: .atMost(15),
        decimals: 1))

    // Joining: `remote add` of the remote the runs above made, plain against encrypted.
    var plainJoins: [Double] = []
    var sealedJoins: [Double] = []
    for run in 1...Self.joinRuns {
      plainJoins.append(
        try lifelogCommand(
          ["remote", "add", "r", folder + "/crypto-plain-1"],
          database: folder + "/join-plain-\(run).db"
        )
        .timedRun())
      sealedJoins.append(
        try lifelogCommand(
          ["remote", "add", "r", folder + "/crypto-sealed-1"],
          database: folder + "/join-sealed-\(run).db",
          environment: Self.passphrase
        ).timedRun())
    }
    let extra = Samples(sealedJoins).median - Samples(plainJoins).median
    report(
      Figure(name: "join_encrypted_extra_s", value: extra, unit: "s", goal: .atMost(1), decimals: 3)
    )
  }

  /// One first sync of `entries`, push then pull, through a new remote: the wall and CPU seconds
  /// both took.
  private func firstSync(
    of entries: [NewEntry], run: Int, encrypted: Bool
  ) throws -> (seconds: Double, cpuSeconds: Double) {
    let kind = encrypted ? "sealed" : "plain"
    let pusher = folder + "/crypto-\(kind)-push-\(run).db"
    let puller = folder + "/crypto-\(kind)-pull-\(run).db"
    let remote = folder + "/crypto-\(kind)-\(run)"
    try buildLog(at: pusher, with: entries)
    try lifelogCommand(
      ["remote", "add", "r", remote, encrypted ? "--encrypt" : "--no-encrypt"], database: pusher,
      environment: Self.passphrase
    ).check()
    try lifelogCommand(
      ["remote", "add", "r", remote], database: puller, environment: Self.passphrase
    ).check()
    sync()
    let push = try lifelogCommand(["sync", "--quiet"], database: pusher).timedRunWithUsage()
    sync()
    let pull = try lifelogCommand(["sync", "--quiet"], database: puller).timedRunWithUsage()
    let count = try LogStore(path: puller).entryCount()
    guard count == Self.entryCount else {
      throw BenchmarkError(
        "the \(kind) pulling log holds \(count) entries after its first sync, not \(Self.entryCount)"
      )
    }
    return (push.seconds + pull.seconds, push.cpuSeconds + pull.cpuSeconds)
  }
}
