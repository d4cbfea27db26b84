import LifelogCore

/// What a sheet import is told on the command line besides the file.
public struct SheetImportSettings: Sendable {
  /// `--map`: empty when the header is lifelog's own columns (or to get a proposal).
  public var mapping = SheetMapping()
  /// `--activity`: the activity of rows that name none (or of every row, with no activity column).
  public var activity: String?
  /// `--date-format`: the order of `a/b/yyyy` dates; nil to decide it from the dates.
  public var dateOrder: SheetDateOrder?
  /// The zone local times are read in: a time it shows once is handed on with its offset (the
  /// import's fast path); one a DST change skips or repeats goes to lifelog's own parser, which
  /// says what is wrong.
  public var zone: (any TimeZoneRules)?

  public init() {}
}

/// Import rows from a sheet of any shape: each row's cells read as its ``SheetMapping`` says.
///
/// Each entry's id is derived from the row's local time and activity (and, for rows sharing
/// both, from which of them it is), never from the note, quantity or other fields: a row edited
/// there updates its entry when the sheet is imported again, and inserting or sorting rows
/// changes nothing. A row whose time or activity changed becomes a new entry.
public final class SheetImportRecords: ImportRecords {
  public let table: SheetTable
  /// The header's texts.
  public let header: [String]
  private let columns: [SheetMapping.Field: [Int]]
  private let settings: SheetImportSettings
  /// The order of the `a/b/yyyy` dates, decided from all of them before the first row.
  private let dateOrder: SheetDateOrder?
  private var index: Int
  private var occurrences: [String: Int] = [:]

  /// Checks the mapping against the header and decides the date order.
  ///
  /// - Throws: ``InputError`` for an empty sheet, a mapping that names a missing column, no
  ///   mapping for a header lifelog does not know (with a proposed one), or dates whose order
  ///   cannot be decided.
  public init(table: SheetTable, settings: SheetImportSettings) throws(InputError) {
    guard let headerIndex = table.headerIndex else {
      throw InputError("The sheet '\(table.name)' is empty; there is nothing to import")
    }
    self.table = table
    self.settings = settings
    header = table.rows[headerIndex].cells.map { $0.text.trimmingSpaces() }
    index = headerIndex + 1
    occurrences.reserveCapacity(table.rows.count - index)  // one key per row, at most
    var mapping = settings.mapping
    if mapping.isEmpty {
      guard let own = Self.ownColumns(header) else {
        throw Self.proposalRefusal(table, header, headerIndex)
      }
      mapping = own
    }
    let columns = try mapping.resolved(header: header)
    guard let atColumns = columns[.at] else {
      throw InputError(
        "No column is mapped to 'at'; add one, as in --map at=Date+Time or --map at=A")
    }
    guard columns[.activity] != nil || settings.activity != nil else {
      throw InputError(
        "No column is mapped to 'activity'; add one with --map activity=Column, or put every "
          + "row under one activity with --activity NAME")
    }
    self.columns = columns
    if let order = settings.dateOrder {
      dateOrder = order
    } else {
      dateOrder = try Self.decideOrder(table.rows[(headerIndex + 1)...], column: atColumns[0])
    }
  }

  public func next() throws -> Result<ImportRow, RowError>? {
    guard index < table.rows.count else { return nil }
    let row = table.rows[index]
    index += 1
    do throws(InputError) {
      return .success(try importRow(row))
    } catch {
      return .failure(RowError(line: row.number, message: error.message))
    }
  }

  /// The first `count` rows after the header as they would be imported, without moving on.
  public func preview(count: Int) -> [Result<ImportRow, RowError>] {
    let saved = occurrences
    defer { occurrences = saved }
    return table.rows[index..<min(index + count, table.rows.count)].map { row in
      do throws(InputError) {
        return .success(try importRow(row))
      } catch {
        return .failure(RowError(line: row.number, message: error.message))
      }
    }
  }

  /// The row as an import row: its time as `2026-12-06 07:30` in the log's zone (or ISO 8601
  /// with the offset the cell gave), its fields as lifelog's own CSV would have them.
  func importRow(_ row: SheetRow) throws(InputError) -> ImportRow {
    var result = ImportRow(line: row.number)
    let (local, at) = try self.at(row)
    result.at = at
    func cell(_ field: SheetMapping.Field) -> SheetCell {
      columns[field].map { row[$0[0]] } ?? .empty
    }
    func text(_ field: SheetMapping.Field) -> String? {
      let value = cell(field).text.trimmingSpaces()
      return value.isEmpty ? nil : value
    }
    result.activity = text(.activity) ?? settings.activity
    result.kind = text(.kind)
    result.note = text(.note)
    result.unit = text(.unit)
    result.quantity = try SheetNumber.quantity(cell(.quantity))
    result.duration = try SheetNumber.durationSeconds(cell(.duration)).map(String.init)
    result.tags = (text(.tags) ?? "").split { ",; ".contains($0) }.map(String.init)
    let key = "\(local)\u{0}\(ActivityName.key(result.activity ?? ""))"
    let occurrence = occurrences[key, default: 0] + 1
    occurrences[key] = occurrence
    result.id = SheetRecordID.make(key, occurrence: occurrence)
    return result
  }

  /// The row's time as written (`2026-12-06 07:30`, for its id) and as the import reads it:
  /// from one date-and-time column, or a date column and a time column.
  private func at(_ row: SheetRow) throws(InputError) -> (local: String, at: String) {
    let at = columns[.at] ?? []
    let first = row[at[0]]
    guard !first.isEmpty else { throw InputError("The date ('\(header[at[0]])') is empty") }
    guard let moment = Self.moment(first, order: dateOrder) else {
      throw InputError(
        "Cannot read '\(first.text)' as a date; write it as 6.12.2026, 2026-12-06 or "
          + "12/6/2026 (with --date-format m/d/yyyy)")
    }
    var (day, clock): (SheetMoment.SheetDay?, SheetClock?)
    switch moment {
    case .exact(let text):
      guard at.count == 1 else { throw InputError("'\(first.text)' is a whole time, not a date") }
      return (text, text)
    case .local(let date, let time): (day, clock) = (date, time)
    }
    if at.count == 2, !(row[at[1]].isEmpty && clock != nil) {  // a date cell may hold the time
      let second = row[at[1]]
      guard !second.isEmpty else { throw InputError("The time ('\(header[at[1]])') is empty") }
      guard case .local(_, let time?)? = Self.moment(second, order: dateOrder) else {
        throw InputError(
          "Cannot read '\(second.text)' as a time of day; write it as 7:30 or 7.30 am")
      }
      clock = time
    }
    guard let date = day?.date(order: dateOrder) else {
      throw InputError("'\(first.text)' has no date; map a date column (--map at=Date+Time)")
    }
    guard let clock else {
      throw InputError(
        "'\(first.text)' has no time of day; map the time column too (--map at=Date+Time)")
    }
    let local = "\(date) \(clock.text)"
    let wall = LocalDateTime(
      date: date, hour: clock.hour, minute: clock.minute, second: clock.second)
    if let zone = settings.zone, case .unique(let instant) = zone.resolve(wall) {
      return (local, zone.loggedTime(at: instant).iso8601)
    }
    return (local, local)
  }

  static func moment(_ cell: SheetCell, order: SheetDateOrder?) -> SheetMoment? {
    switch cell {
    case .date(let value), .number(let value): SheetMoment.serial(value)
    case .text(let text): SheetMoment.parse(text, order: order)
    case .empty, .bool: nil
    }
  }

  /// The order the column's `a/b/yyyy` dates show (nil when it has none).
  private static func decideOrder(
    _ rows: ArraySlice<SheetRow>, column: Int
  ) throws(InputError) -> SheetDateOrder? {
    var dates: [(row: Int, text: String, first: Int, second: Int)] = []
    for row in rows {
      guard case .text(let text) = row[column],
        case .local(.ambiguous(let first, let second, _)?, _)? = SheetMoment.parse(
          text, order: nil),
        first != second
      else { continue }
      dates.append((row.number, text, first, second))
    }
    return try SheetDateOrder.decide(dates)
  }

  /// The identity mapping when every header names one of lifelog's own columns.
  static func ownColumns(_ header: [String]) -> SheetMapping? {
    var mapping = SheetMapping()
    for name in header where !name.isEmpty {
      guard let field = SheetMapping.Field(rawValue: name.lowercased()) else { return nil }
      mapping.set(field, [name])
    }
    return mapping.columns[.at] != nil && mapping.columns[.activity] != nil ? mapping : nil
  }

  /// The refusal of a header lifelog does not know, with a proposed `--map` line.
  private static func proposalRefusal(
    _ table: SheetTable, _ header: [String], _ headerIndex: Int
  ) -> InputError {
    let shown = SheetNameList.joined(header.filter { !$0.isEmpty }, SheetNameList.quoted)
    var message =
      "The columns of \(SheetNameList.quoted(table.name)) (\(shown)) are not lifelog's own (\(ExchangeColumn.list)); "
      + "say which holds what with --map"
    if let proposal = SheetMappingGuess.propose(table, headerIndex: headerIndex) {
      message +=
        ". From their contents, this looks right; check it with --dry-run:\n  "
        + proposal
    }
    return InputError(message)
  }
}

/// The id of an entry imported from a sheet: from the row's local time, activity and which of
/// the rows sharing both it is.
enum SheetRecordID {
  static func make(_ key: String, occurrence: Int) -> String {
    var seed: [UInt8] = []
    seed.reserveCapacity(40 + key.utf8.count)
    seed.append(contentsOf: "lifelog-import:sheet".utf8)
    appendPart(key.utf8, to: &seed)
    var number: [UInt8] = []
    appendDecimal(occurrence, to: &number)
    appendPart(number, to: &seed)
    var bytes = Array(SHA256.hash(seed).prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom, derived from the row
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
    return UUIDText.format(bytes)
  }

  /// Appends `12:` and the part's 12 bytes: its length first, so parts never run together.
  private static func appendPart(_ part: some Collection<UInt8>, to seed: inout [UInt8]) {
    appendDecimal(part.count, to: &seed)
    seed.append(UInt8(ascii: ":"))
    seed.append(contentsOf: part)
  }

  /// Appends a count (never negative) in decimal digits, as `"\(count)"` writes it.
  private static func appendDecimal(_ count: Int, to bytes: inout [UInt8]) {
    let start = bytes.count
    var rest = count.magnitude
    repeat {
      bytes.append(UInt8(48 + rest % 10))
      rest /= 10
    } while rest > 0
    bytes[start...].reverse()
  }
}
