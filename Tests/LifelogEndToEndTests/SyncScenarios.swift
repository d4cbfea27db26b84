import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogTestSupport
import Testing

// MARK: - Randomness

/// The crash trials' generator: seeded, so a failing run replays from its printed seed.
typealias SeededGenerator = SplitMix64

extension SplitMix64 {
  /// `SYNC_CRASH_SEED` when set (to replay or explore), else the fixed seed of the normal run.
  static func seed() -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["SYNC_CRASH_SEED"], let seed = UInt64(text) {
      return seed
    }
    return 20_261_202
  }
}

/// Seconds since `start`.
func secondsSince(_ start: Date) -> Double { Date().timeIntervalSince(start) }

extension SyncMachine {
  /// The scenario every kind of remote must pass, as a person would live it: two machines that
  /// have both joined `remote` (the laptop with breakfast and a walk, the desktop with lunch, all
  /// made before the remote existed) sync; edits of different fields of one entry both survive and
  /// the later edit of one field wins; a delete and a restore made on the other machine sync; a
  /// third machine joins with `join` and gets everything, tombstones included.
  ///
  /// - Returns: the third machine.
  @discardableResult
  static func convergeAsAUserWould(
    laptop: SyncMachine, desktop: SyncMachine, remote: String,
    entries: (breakfast: String, walk: String, lunch: String), in folder: TemporaryDirectory,
    join: (SyncMachine) throws -> Void
  ) throws -> SyncMachine {
    let (breakfast, walk, lunch) = entries
    let first = try laptop.expectSuccess("sync")
    #expect(first.stdout == "Synced '\(remote)': pulled 0 batches, pushed 1\n", "\(first)")
    let second = try desktop.expectSuccess("sync")
    #expect(second.stdout == "Synced '\(remote)': pulled 1 batch, pushed 1\n", "\(second)")
    try laptop.syncUntilQuiet()
    #expect(Set(try laptop.entries().keys) == [breakfast, walk, lunch])
    #expect(try laptop.sortedListLines() == (try desktop.sortedListLines()))

    // Different fields of one entry edited on both machines: both edits survive. The same field
    // edited on both: both machines agree on the later edit.
    try laptop.expectSuccess("edit", breakfast, "--note", "oatmeal, banana")
    try desktop.expectSuccess("edit", String(breakfast.prefix(8)), "--duration", "15m")
    try laptop.expectSuccess("edit", lunch, "--note", "soup (laptop)")
    usleep(20_000)
    try desktop.expectSuccess("edit", lunch, "--note", "soup (desktop, later)")
    for machine in [laptop, desktop, laptop, desktop] { try machine.syncUntilQuiet() }
    for machine in [laptop, desktop] {
      let entries = try machine.entries()
      #expect(entries[breakfast]?["note"] as? String == "oatmeal, banana", "\(machine.name)")
      #expect(entries[breakfast]?["duration"] as? Int == 900, "\(machine.name)")
      #expect(entries[lunch]?["note"] as? String == "soup (desktop, later)", "\(machine.name)")
    }

    // A delete syncs, and so does a restore made on the other machine.
    try laptop.expectSuccess("delete", walk)
    try laptop.syncUntilQuiet()
    try desktop.syncUntilQuiet()
    #expect(try desktop.entries()[walk] == nil)
    #expect(try desktop.entries(deleted: true)[walk]?["deleted"] as? Bool == true)
    try desktop.expectSuccess("restore", walk)
    try desktop.syncUntilQuiet()
    try laptop.syncUntilQuiet()
    #expect(try laptop.entries()[walk]?["duration"] as? Int == 1800)
    #expect(try laptop.entries(deleted: true)[walk] == nil)

    // A tombstone, then a third machine joins and gets everything, deleted entries included.
    try desktop.expectSuccess("delete", lunch)
    try desktop.syncUntilQuiet()
    let phone = SyncMachine("phone", in: folder)
    try join(phone)
    try phone.syncUntilQuiet()
    try laptop.syncUntilQuiet()
    for machine in [laptop, phone] {
      #expect(try machine.sortedListLines() == (try desktop.sortedListLines()), "\(machine.name)")
      #expect(
        try machine.sortedListLines(deleted: true) == (try desktop.sortedListLines(deleted: true)),
        "\(machine.name)")
    }
    #expect(Set(try phone.entries().keys) == [breakfast, walk])
    #expect(Set(try phone.entries(deleted: true).keys) == [lunch])
    return phone
  }
}
