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
      SELECT e.id, e.at, e.tz_offset, a.name, a.kind, e.duration, e.note, e.quantity, a.unit, e.tags
      FROM entry e LEFT JOIN activity a ON a.id = e.activity_id
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
          out.bytes.removeAll(keepingCapacity: true)
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

/// CSV rows built byte by byte, quoting as RFC 4180 asks (and as `list --format csv` does).
struct CSVBytes {
  var bytes: [UInt8] = []

  init(capacity: Int) { bytes.reserveCapacity(capacity) }

  mutating func header() {
    append(ExchangeColumn.allCases.map(\.rawValue).joined(separator: ","))
    bytes.append(contentsOf: [0x0D, 0x0A])
  }

  /// One exported entry from a row of the export query.
  mutating func row(_ row: Row) {
    row.withUTF8(0) { bytes.append(contentsOf: $0) }  // ids need no quoting
    comma()
    time(instant: row[1], offsetMinutes: row[2])
    comma()
    if row.isNull(3) { append("(unknown activity)") } else { row.withUTF8(3) { field($0) } }
    comma()
    if row.isNull(4) { append(ActivityKind.other.rawValue) } else { row.withUTF8(4) { field($0) } }
    comma()
    if !row.isNull(5) { number(row[5] as Int64) }
    comma()
    row.withUTF8(6) { field($0) }
    comma()
    if !row.isNull(7) { append(JSONText.number(row[7] as Double)) }
    comma()
    row.withUTF8(8) { field($0) }
    comma()
    // Tags are stored separated by spaces and exported separated by semicolons.
    row.withUTF8(9) { tags in
      for byte in tags { bytes.append(byte == 0x20 ? UInt8(ascii: ";") : byte) }
    }
    bytes.append(contentsOf: [0x0D, 0x0A])
  }

  private mutating func comma() { bytes.append(UInt8(ascii: ",")) }

  private mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

  /// A text field, quoted when it holds a comma, quote or line break.
  private mutating func field(_ text: UnsafeBufferPointer<UInt8>) {
    guard text.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
      bytes.append(contentsOf: text)
      return
    }
    bytes.append(0x22)
    for byte in text {
      if byte == 0x22 { bytes.append(0x22) }
      bytes.append(byte)
    }
    bytes.append(0x22)
  }

  private mutating func number(_ value: Int64) { bytes.appendDecimal(value) }

  private mutating func digits(_ value: Int, _ width: Int) { bytes.appendDigits(value, width) }

  /// `2026-12-01T08:15:00+01:00`, as ``LoggedTime/iso8601`` writes it.
  private mutating func time(instant: Int64, offsetMinutes: Int) {
    let time = LoggedTime(instant: instant, offsetMinutes: offsetMinutes)
    let local = time.local
    guard (1...9999).contains(local.date.year) else {
      append(time.iso8601)
      return
    }
    digits(local.date.year, 4)
    bytes.append(UInt8(ascii: "-"))
    digits(local.date.month, 2)
    bytes.append(UInt8(ascii: "-"))
    digits(local.date.day, 2)
    bytes.append(UInt8(ascii: "T"))
    digits(local.hour, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(local.minute, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(local.second, 2)
    bytes.append(UInt8(ascii: offsetMinutes < 0 ? "-" : "+"))
    digits(abs(offsetMinutes) / 60, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(abs(offsetMinutes) % 60, 2)
  }
}
