@preconcurrency import Glibc
import LifelogCore
import LifelogSQLite

/// `migration_100k_ms`: the first open by today's lifelog of a 100,000-entry log written by
/// lifelog 0.3.0, which runs every migration after that version's three; the target is ≤ 2 s.
///
/// The log is built at schema v3 with `LogStore(path:schemaVersion: 3)` (migrations never
/// change, so that is 0.3.0's layout exactly) and its rows are written with plain SQL in that
/// layout, as 0.3.0 wrote them, not through today's insert (which writes today's layout).
extension BenchmarkSuite {
  static let migrationAttempts = 3
  /// lifelog 0.3.0's migrations: v1-initial, v2-sync, v3-remote-keys.
  static let schemaOf030 = 3
  /// The default activities, which the sample entries take in turn, so an activity key has more
  /// than one value to map.
  static let defaultActivities = [
    "breakfast", "lunch", "dinner", "snack", "walk", "run", "workout", "sleep",
  ]

  /// The migration part: one figure.
  func runMigration(report: (Figure) -> Void) throws {
    report(try migrationTime())
  }

  /// Best of three: a new 0.3.0 log each time, `sync()`ed, then `LogStore(path:)` opened and
  /// closed (a close copies a WAL grown past 512 KiB into the file, as the first command after
  /// an upgrade does); the applied migrations and the entry count are checked in between, not
  /// timed, and the count again by a fresh open after the close.
  func migrationTime() throws -> Figure {
    Log.info("migration: building \(Self.entryCount) sample entries")
    let entries = SampleLog.entries(
      count: Self.entryCount, endingAt: BenchmarkSuite.now() - 60, seed: 0x0030)
    var best = Double.infinity
    for attempt in 1...Self.migrationAttempts {
      let path = folder + "/v030-\(attempt).db"
      let building = try MonotonicClock.measure { try buildLogOf030(at: path, with: entries) }
      Log.info("migration: built a 0.3.0 log of \(entries.count) entries in \(ms(building))")
      sync()
      var migrated: LogStore?
      let opening = try MonotonicClock.measure { migrated = try LogStore(path: path) }
      // Checked between the two, untimed.
      let applied = try migrated?.appliedMigrations() ?? []
      let count = try migrated?.entryCount() ?? 0
      let closing = MonotonicClock.measure { migrated = nil }
      let seconds = opening + closing
      guard applied == LogStore.knownMigrations, count == entries.count,
        try LogStore(path: path).entryCount() == entries.count
      else {
        throw BenchmarkError(
          "the migrated log holds \(count) entries and migrations \(applied), not "
            + "\(entries.count) and \(LogStore.knownMigrations)")
      }
      Log.info(
        "migration_100k_ms: attempt \(attempt): \(ms(seconds)) (open and migrate "
          + "\(ms(opening)), close \(ms(closing)))")
      best = min(best, seconds)
      removeLog(at: path)
    }
    return Figure(
      name: "migration_100k_ms", value: best * 1e3, unit: "ms", goal: .atMost(2000), decimals: 1)
  }

  /// Writes `entries` into a new log at schema v3, as 0.3.0 left a log: every entry stamped and
  /// queued in `sync_pending` (never synced, the most a migration has to carry), the WAL copied
  /// into the file and deleted, so the file alone is the log.
  func buildLogOf030(at path: String, with entries: [NewEntry]) throws {
    guard access(path, F_OK) != 0 else { throw BenchmarkError("'\(path)' already exists") }
    let activityIDs = Self.defaultActivities.map { ActivityName.derivedID(for: $0) }
    let stampBase = UInt64(BenchmarkSuite.now() - 86_400) * 1_000
    do {
      let store = try LogStore(path: path, schemaVersion: Self.schemaOf030)
      let database = store.database
      try database.inTransaction {
        let insert = try database.makeStatement(
          sql: """
            INSERT INTO entry (id, activity_id, at, tz_offset, duration, note, quantity, tags, source, stamps)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let pending = try database.makeStatement(
          sql: "INSERT INTO sync_pending (entity, id) VALUES ('entry', ?)")
        for (index, entry) in entries.enumerated() {
          try insert.execute([
            entry.id, activityIDs[index % activityIDs.count], entry.time.instant,
            entry.time.offsetMinutes, entry.duration, entry.note, entry.quantity,
            entry.tags.joined(separator: " "), entry.source,
            Self.stamp(milliseconds: stampBase + UInt64(index)),
          ])
          try pending.execute([entry.id])
        }
      }
    }
    // Closing the last plain connection after a checkpoint deletes the WAL and its index.
    do {
      let database = try Database(path: path, mode: .readWrite)
      try database.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    guard access(path + "-wal", F_OK) != 0 else {
      throw BenchmarkError("'\(path)-wal' is still there after its checkpoint")
    }
  }

  /// A stamp as 0.3.0 wrote it: 12 hex digits of milliseconds, 4 of counter, 12 of device.
  static func stamp(milliseconds: UInt64) -> String {
    let digits = String(milliseconds & 0xFFFF_FFFF_FFFF, radix: 16)
    return String(repeating: "0", count: 12 - digits.count) + digits + "0000" + "0b3c0030f1e5"
  }
}
