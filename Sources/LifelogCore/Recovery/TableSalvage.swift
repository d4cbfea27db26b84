import LifelogSQLite

/// Copies the rows of one table of a damaged log (attached as `damaged`) into the same table of a
/// new log, reading by rowid so that a damaged page costs only the rows on it.
///
/// Rows go over in runs of ``runLength``, each one `INSERT … SELECT`; a run that fails is copied
/// row by row instead; where even finding the next rowid fails (the seek lands on a damaged page),
/// the smallest rowid past the damage from which a seek succeeds is searched for (doubling, then
/// bisecting): the rowids skipped are reported as an unreadable range, and each of them is still
/// looked up on its own, which reads only that row's leaf page.
struct TableSalvage {
  static let runLength: Int64 = 256
  /// The widest skipped range whose rowids are each looked up (65,536 lookups take milliseconds).
  static let probedRange: Int64 = 1 << 16

  let database: Database
  let table: String
  /// The columns both tables have, quoted.
  let columns: String

  /// Copies every readable row; a row of the new log with the same rowid or key is replaced.
  func run() -> RecoveryReport.Table {
    var result = RecoveryReport.Table(name: table)
    var after = Int64.min
    while true {
      let next: Int64?
      do {
        next = try nextRowID(after: after)
      } catch {
        guard let resume = firstReadableStart(after: after) else {
          if after == Int64.min {
            result.unreadable = true
          } else {
            result.unreadableRanges.append(after + 1...Int64.max)
          }
          return result
        }
        result.unreadableRanges.append(after + 1...resume)
        result.saved += copyEach(after + 1...resume)
        after = resume
        continue
      }
      guard let next else { return result }
      let end = next.addingReportingOverflow(TableSalvage.runLength - 1)
      let last = end.overflow ? Int64.max : end.partialValue
      if let copied = try? copy(from: next, through: last) {
        result.saved += copied
        after = last
      } else if let copied = try? copy(next) {
        result.saved += copied
        after = next
      } else {
        result.unreadableRows += 1
        after = next
      }
      if after == Int64.max { return result }
    }
  }

  /// The first rowid above `after`, nil when there is none.
  ///
  /// - Throws: when SQLite fails, or answers a rowid not above `after` (a damaged page can point
  ///   back into the tree, and following it would never end).
  private func nextRowID(after: Int64) throws -> Int64? {
    let next = try database.cachedStatement(
      sql: "SELECT rowid FROM damaged.\(table) WHERE rowid > ? ORDER BY rowid LIMIT 1"
    ).first([after]) { $0[0] as Int64 }
    if let next, next <= after { throw SQLiteError(code: 11, message: "rowids out of order") }
    return next
  }

  /// Copies the rows with rowids in `first...last` in one statement, its own transaction (all or
  /// none), and returns how many there were.
  private func copy(from first: Int64, through last: Int64) throws -> Int {
    try database.execute(
      sql:
        "INSERT OR REPLACE INTO main.\(table) (rowid, \(columns)) SELECT rowid, \(columns) "
        + "FROM damaged.\(table) WHERE rowid BETWEEN ? AND ?",
      arguments: [first, last])
    return database.changes
  }

  /// Copies the one row with this rowid, found by a lookup that reads no other leaf page (a range
  /// scan steps onto the next page to find its end); returns 1, or 0 when there is no such row.
  private func copy(_ rowid: Int64) throws -> Int {
    try database.execute(
      sql:
        "INSERT OR REPLACE INTO main.\(table) (rowid, \(columns)) SELECT rowid, \(columns) "
        + "FROM damaged.\(table) WHERE rowid = ?",
      arguments: [rowid])
    return database.changes
  }

  /// Looks up each rowid of a skipped range on its own (up to ``probedRange`` of them): a seek
  /// past the damage lands on the damaged page, but a lookup of a row on the next page does not.
  private func copyEach(_ range: ClosedRange<Int64>) -> Int {
    let width = range.upperBound.subtractingReportingOverflow(range.lowerBound)
    guard !width.overflow, width.partialValue < TableSalvage.probedRange else { return 0 }
    return range.reduce(0) { $0 + ((try? copy($1)) ?? 0) }
  }

  /// The smallest rowid `r` above `after` from which `rowid > r` can be sought without an error,
  /// nil when there is none below `Int64.max`.
  private func firstReadableStart(after: Int64) -> Int64? {
    var step: Int64 = 1
    var low = after  // seeking from here fails
    var high: Int64?
    while high == nil {
      let probe = after.addingReportingOverflow(step)
      let candidate = probe.overflow || step == Int64.max ? Int64.max : probe.partialValue
      if canSeek(after: candidate) {
        high = candidate
      } else if candidate == Int64.max {
        return nil
      } else {
        low = candidate
        step = step > Int64.max / 2 ? Int64.max : step * 2
      }
    }
    guard var high else { return nil }
    while low < high - 1 {
      let middle = low &+ Int64(bitPattern: UInt64(bitPattern: high &- low) / 2)
      if canSeek(after: middle) { high = middle } else { low = middle }
    }
    return high
  }

  /// Whether looking for the first rowid above `rowid` succeeds (finding one or none).
  private func canSeek(after rowid: Int64) -> Bool {
    do {
      _ = try nextRowID(after: rowid)
      return true
    } catch {
      return false
    }
  }
}
