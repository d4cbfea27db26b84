import LifelogCore
import LifelogSQLite

extension LogStore {
  /// Writes the live entries a query selects as an iCalendar file (RFC 5545), oldest first: one
  /// VTIMEZONE per UTC offset the entries were logged at, then one VEVENT per entry
  /// (docs/cli.md, "lifelog export", has the mapping).
  ///
  /// Like ``exportCSV(from:to:flushSize:flush:)`` it streams: rows go from one prepared statement
  /// into a byte buffer that `flush` receives whenever it holds more than `flushSize` bytes
  /// (always whole lines) and once at the end. The offsets are read first, in the same read
  /// transaction, because a calendar names its time zones before the events that use them.
  ///
  /// - Parameter now: the export's time, the DTSTAMP of a row that has no valid stamp.
  /// - Returns: the number of entries written.
  @discardableResult
  public func exportCalendar(
    from: Int64? = nil, to: Int64? = nil, now: Int64, flushSize: Int = 1 << 20,
    flush: ([UInt8]) throws -> Void
  ) throws -> Int {
    let (condition, arguments) = Self.exportRange(from: from, to: to)
    let offsetsSQL = "SELECT DISTINCT e.tz_offset FROM entry e WHERE \(condition) ORDER BY 1"
    let sql = """
      SELECT \(EntryExportColumns.calendar.sql)
      FROM \(LogStore.entrySource)
      WHERE \(condition) ORDER BY e.at, e.id
      """
    var out = CalendarBytes(capacity: flushSize + (1 << 16))
    out.begin(productVersion: LifelogVersion.current)
    var count = 0
    try read {
      try database.cachedStatement(sql: offsetsSQL).forEachRow(arguments) { row in
        out.timeZone(offsetMinutes: row[0])
      }
      try database.cachedStatement(sql: sql).forEachRow(arguments) { row in
        out.event(row, now: now)
        count += 1
        if out.bytes.count >= flushSize {
          try flush(out.bytes)
          out.bytes.removeAll(keepingCapacity: true)
        }
      }
    }
    out.end()
    try flush(out.bytes)
    return count
  }
}
