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
    /// Read the whole table in storage order instead of the time index: faster when the window
    /// holds much of the log, but the entries then come in no particular order.
    var wholeTable: Bool
  }

  /// Roughly how many entries lie at instants `from ..< to`, and how many the log holds: to
  /// size arrays and choose a scan, from three index lookups (counting the window exactly would
  /// step through its part of the index).
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

  /// Calls `body` with the live entries of `scan`: by instant when read through the time index
  /// (entries at one instant in index order), in storage order when reading the whole table.
  func forEachReportEntry(_ scan: ReportScan, _ body: (consuming Entry) throws -> Void) throws {
    // Memory-mapped reads: a report may read most of the log once, and copying every page into
    // SQLite's cache costs more than the reading (this connection lives for one command).
    try database.execute(sql: "PRAGMA mmap_size = 1073741824")
    let ids = scan.fields.contains(.ids)
    let notes = scan.fields.contains(.notes)
    try read {
      var activities = ActivityLookup(
        try database.cachedStatement(sql: "SELECT id, name, kind, unit FROM activity").map([]) {
          row in
          ActivityLookup.Known(
            bytes: row.withUTF8(0) { Array($0) }, id: row[0], name: row[1],
            kind: ActivityKind(rawValue: row[2]) ?? .other, unit: row[3])
        })
      let statement = try database.cachedStatement(
        sql: """
          SELECT \(ids ? "id" : "''"), activity_id, at, tz_offset, duration, \(notes ? "note" : "NULL"), quantity
          FROM entry \(scan.wholeTable ? "NOT INDEXED" : "")
          WHERE deleted = 0 AND at >= ? AND at < ? \(scan.wholeTable ? "" : "ORDER BY at")
          """)
      try statement.forEachRow([scan.from, scan.to]) { row in
        // Found first: finding may add an activity to the list.
        let index = row.withUTF8(1) { activities.find($0) }
        let activity = activities.known[index]
        try body(
          Entry(
            id: ids ? row[0] : "", activityID: activity.id, activityName: activity.name,
            kind: activity.kind,
            unit: activity.unit, time: LoggedTime(instant: row[2], offsetMinutes: row[3]),
            duration: EntryFields.stored(duration: row[4]),
            note: notes ? row[5] : nil, quantity: EntryFields.stored(quantity: row[6])))
      }
    }
  }
}

/// The activities of the log by the bytes of their id, the last one found checked first (entries
/// of one activity often come in runs).
private struct ActivityLookup {
  struct Known {
    let bytes: [UInt8]
    let id: String
    let name: String
    let kind: ActivityKind
    let unit: String?
  }

  private(set) var known: [Known]
  private var last = 0

  init(_ known: [Known]) { self.known = known }

  /// The index in ``known`` of the activity with the id in `bytes`; one that is not in the log
  /// yet (an entry can arrive by sync before its activity) is added as an unknown activity, as
  /// ``LogStore/entries(_:)`` shows it.
  mutating func find(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    if last < known.count, ActivityLookup.same(known[last].bytes, bytes) { return last }
    if let index = known.firstIndex(where: { ActivityLookup.same($0.bytes, bytes) }) {
      last = index
      return index
    }
    let id = String(decoding: bytes, as: UTF8.self)
    known.append(
      Known(bytes: Array(bytes), id: id, name: "(unknown activity)", kind: .other, unit: nil))
    last = known.count - 1
    return last
  }

  private static func same(_ stored: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard stored.count == bytes.count else { return false }
    guard let base = bytes.baseAddress else { return true }
    return stored.withUnsafeBufferPointer { storedBytes in
      storedBytes.baseAddress.map { memcmp($0, base, bytes.count) == 0 } ?? true
    }
  }
}
