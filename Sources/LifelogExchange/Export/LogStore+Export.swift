import LifelogCore
import LifelogSQLite

extension LogStore {
  /// Writes the live entries a query selects (its range only; no limit) as CSV, oldest first:
  /// a header row, then one row per entry in the columns of ``ExchangeColumn``, CRLF line ends.
  ///
  /// Rows go from one prepared statement straight into a byte buffer, without building an
  /// ``Entry`` or any `String` per row; `flush` receives the buffer whenever it holds more than
  /// `flushSize` bytes (always whole rows, so whole UTF-8 characters) and once at the end.
  ///
  /// - Returns: the number of entries written.
  @discardableResult
  public func exportCSV(
    from: Int64? = nil, to: Int64? = nil, flushSize: Int = 1 << 20, flush: ([UInt8]) throws -> Void
  ) throws -> Int {
    let (condition, arguments) = Self.exportRange(from: from, to: to)
    let sql = """
      SELECT \(EntryExportColumns.csv.sql)
      FROM \(LogStore.entrySource)
      WHERE \(condition) ORDER BY e.at, e.id
      """
    var out = CSVBytes(capacity: flushSize + (1 << 16))
    out.header()
    var count = 0
    try read {
      try database.cachedStatement(sql: sql).forEachRow(arguments) { row in
        out.row(row)
        count += 1
        if out.bytes.count >= flushSize {
          try flush(out.bytes)
          out.removeAll()
        }
      }
    }
    try flush(out.bytes)
    return count
  }

  /// The `WHERE` condition (on `entry e`) and its arguments of every export: the live entries
  /// at or after `from` and before `to`.
  static func exportRange(
    from: Int64?, to: Int64?
  ) -> (condition: String, arguments: [any SQLiteBindable]) {
    var conditions = ["e.deleted = 0"]
    var arguments: [any SQLiteBindable] = []
    if let from {
      conditions.append("e.at >= ?")
      arguments.append(from)
    }
    if let to {
      conditions.append("e.at < ?")
      arguments.append(to)
    }
    return (conditions.joined(separator: " AND "), arguments)
  }
}

/// CSV rows built byte by byte in a ``TextBytes``, quoting as RFC 4180 asks (and as
/// `list --format csv` does), text that would start a formula guarded (``FormulaGuard``).
struct CSVBytes {
  var text: TextBytes

  init(capacity: Int) { text = TextBytes(capacity: capacity) }

  var bytes: [UInt8] { text.bytes }

  mutating func removeAll() { text.removeAll() }

  mutating func header() {
    text.append(ExchangeColumn.allCases.map(\.rawValue).joined(separator: ","))
    text.append("\r\n")
  }

  /// One exported entry from a row of the export query.
  mutating func row(_ row: Row) {
    let row = ExportRow(row: row, columns: .csv)
    row.withUTF8(.id) { text.append($0) }  // ids need no quoting
    comma()
    text.iso8601(row.loggedTime)
    comma()
    row.withActivityName { text.csvText($0) }
    comma()
    row.withKind { text.csvField($0) }
    comma()
    if !row.isNull(.duration) { text.number(row[.duration] as Int64) }
    comma()
    row.withUTF8(.note) { text.csvText($0) }
    comma()
    if !row.isNull(.quantity) { text.append(JSONText.number(row[.quantity] as Double)) }
    comma()
    row.withUTF8(.unit) { text.csvText($0) }
    comma()
    // Tags are stored separated by spaces and exported separated by semicolons.
    row.withUTF8(.tags) { tags in
      guard !FormulaGuard.isGuarded(tags) else {
        return text.csvText(String(decoding: tags, as: UTF8.self).replacing(" ", with: ";"))
      }
      for byte in tags { text.append(byte: byte == 0x20 ? UInt8(ascii: ";") : byte) }
    }
    text.append("\r\n")
  }

  private mutating func comma() { text.append(byte: UInt8(ascii: ",")) }
}
