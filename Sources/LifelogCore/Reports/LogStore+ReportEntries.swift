@preconcurrency import Glibc
import LifelogSQLite

/// Reading entries for reports: the live entries of a window of instants, fast enough for a
/// report over 100,000 entries to take a fraction of a second as a whole process.
///
/// ``LogStore/forEachEntry(_:_:)`` joins every row with its activity and orders ties by id, which
/// makes SQLite sort the whole result. A report looks activities up itself (there are a few dozen
/// at most), puts entries in order itself, and reads only the columns it shows: entries come
/// without tags and source, and without ids or notes unless asked for (``ReportLog/Fields``).
extension LogStore {
  /// How the entries of a window are read.
  struct ReportScan {
    /// The first instant (inclusive) and the last (exclusive).
    var from: Int64
    var to: Int64
    var fields: ReportLog.Fields
    /// At most this many entries are asked of SQLite per query (see ``ReportEntryReader``).
    var partEntries: Int
  }

  /// Roughly how many entries lie at instants `from ..< to`, and how many the log holds: to
  /// size arrays, from three index lookups (counting the window exactly would step through its
  /// part of the index).
  ///
  /// Entries are taken to be spread evenly between the first and the last; entries are never
  /// removed, only marked deleted, so the largest rowid is close to how many there are.
  func reportEntryEstimate(from: Int64, to: Int64) throws -> (inWindow: Int, inLog: Int) {
    try read {
      let sql = """
        SELECT (SELECT min(at) FROM entry), (SELECT max(at) FROM entry), (SELECT max(rowid) FROM entry)
        """
      let (first, last, count): (Int64?, Int64?, Int?) =
        try database.cachedStatement(sql: sql).first { ($0[0], $0[1], $0[2]) } ?? (nil, nil, nil)
      guard let first, let last, let count, count > 0 else { return (0, 0) }
      let overlap = max(0, min(to, last + 1) - max(from, first))
      let share = Double(overlap) / Double(max(1, last + 1 - first))
      return (min(count, Int((Double(count) * share).rounded(.up))), count)
    }
  }

  /// The page cache a report reads with, in KiB: a report passes over its entries once, so a
  /// large cache only holds pages that are never read again (and shows as the process's memory).
  static let reportCacheKiB = 2048

  /// Calls `body` with the live entries of `scan` by instant (entries at one instant by rowid).
  ///
  /// It asks SQLite for at most ``ReportScan/partEntries`` at a time: each part is one query
  /// through the time index that starts after the last (instant, rowid) of the part before, so
  /// no query's result grows with the range. All parts are read in one read transaction, so a
  /// report never mixes two states of the log.
  func forEachReportEntry(_ scan: ReportScan, _ body: (consuming Entry) throws -> Void) throws {
    // No memory-mapped reads and a small cache: both would keep every page read in the process's
    // memory, which over a whole large log is more than the report itself.
    try database.execute(
      sql: "PRAGMA mmap_size = 0; PRAGMA cache_size = -\(LogStore.reportCacheKiB)")
    defer { try? database.execute(sql: "PRAGMA cache_size = -\(LogStore.cacheKiB)") }
    let ids = scan.fields.contains(.ids)
    let notes = scan.fields.contains(.notes)
    let partEntries = max(1, scan.partEntries)
    try read {
      let activities = ActivityLookup(
        try database.cachedStatement(
          sql: """
            SELECT k.key, k.id, a.name, a.kind, a.unit
            FROM activity_key k LEFT JOIN activity a ON a.id = k.id
            """
        ).map([]) { row in
          // An entry can arrive by sync before its activity: it shows as an unknown activity, as
          // ``LogStore/entries(_:)`` shows it.
          (
            key: row[0],
            ActivityLookup.Known(
              id: row[1], name: row[2] as String? ?? "(unknown activity)",
              kind: ActivityKind(rawValue: row[3] as String? ?? "") ?? .other, unit: row[4])
          )
        })
      let statement = try database.cachedStatement(
        sql: """
          SELECT rowid, \(ids ? StoredEntryID.text(of: "id") : "''"), activity, at, tz_offset, duration, \(notes ? "note" : "NULL"), quantity
          FROM entry INDEXED BY entry_by_time
          WHERE at >= ? AND at < ? AND (at > ? OR rowid > ?) AND deleted = 0
          ORDER BY at, rowid LIMIT ?
          """)
      var last: (at: Int64, rowid: Int64) = (scan.from, Int64.min)
      var read = partEntries
      while read == partEntries {
        read = 0
        try statement.forEachRow([last.at, scan.to, last.at, last.rowid, partEntries]) { row in
          read += 1
          last = (row[3], row[0])
          let activity = activities.find(row[2])
          try body(
            Entry(
              id: ids ? row[1] : "", activityID: activity.id, activityName: activity.name,
              kind: activity.kind,
              unit: activity.unit, time: LoggedTime(instant: row[3], offsetMinutes: row[4]),
              duration: EntryFields.stored(duration: row[5]),
              note: notes ? row[6] : nil, quantity: EntryFields.stored(quantity: row[7])))
        }
      }
    }
  }
}

/// The activities of the log by their key in `entry.activity`, read once per report: a report
/// over 100,000 entries looks one up per entry, by integer, with no string made.
private struct ActivityLookup {
  struct Known {
    let id: String
    let name: String
    let kind: ActivityKind
    let unit: String?
  }

  private let byKey: [Int64: Known]
  /// What an entry whose key is missing from `activity_key` shows (only a damaged log has one;
  /// `lifelog check` names it).
  private let missing = Known(id: "", name: "(unknown activity)", kind: .other, unit: nil)

  init(_ known: [(key: Int64, Known)]) {
    byKey = Dictionary(known, uniquingKeysWith: { first, _ in first })
  }

  func find(_ key: Int64) -> Known { byKey[key] ?? missing }
}
