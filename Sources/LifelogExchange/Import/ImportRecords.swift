import LifelogCore

/// A source of import rows: a CSV or JSON Lines reader.
///
/// Rows come one at a time, so an import never holds the whole file. A row that cannot even be
/// read (bad quoting, wrong field count, not an object) comes as a ``RowError`` and reading goes
/// on with the next one.
public protocol ImportRecords: AnyObject {
  /// The next row, or nil at the end of the input.
  ///
  /// - Throws: ``InputFileError`` when the input cannot be read, ``InputError`` when the file as a
  ///   whole is unusable (an empty CSV file, a bad header).
  func next() throws -> Result<ImportRow, RowError>?
}

/// What is wrong with one row of an import, and on which line it starts.
public struct RowError: Error, Equatable, Sendable, CustomStringConvertible {
  public let line: Int
  public let message: String

  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  public var description: String { "line \(line): \(message)" }
}

/// The file formats `lifelog import` reads and `lifelog export` writes.
public enum ExchangeFormat: String, CaseIterable, Sendable {
  case csv, jsonl

  /// The format a file's name or first byte shows: `.csv`, `.jsonl`/`.ndjson`, or a `{` first.
  public static func detect(
    path: String?, input: ChunkedReader
  ) throws(InputFileError) -> ExchangeFormat {
    let name = path?.lowercased() ?? ""
    if name.hasSuffix(".csv") { return .csv }
    if name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") { return .jsonl }
    return try input.firstByte() == UInt8(ascii: "{") ? .jsonl : .csv
  }

  /// The reader for this format.
  public func records(from input: ChunkedReader) -> any ImportRecords {
    switch self {
    case .csv: CSVImportRecords(input)
    case .jsonl: JSONLinesImportRecords(input)
    }
  }
}

// MARK: - CSV

/// Import rows from CSV with a header row naming the columns (any order, any case).
///
/// A text field (activity, note, unit, tags) that the export guarded against formula injection
/// loses its `'` again (``FormulaGuard/unguarded(_:)``).
public final class CSVImportRecords: ImportRecords {
  private let reader: CSVReader
  private var columns: [ExchangeColumn]?

  public init(_ input: ChunkedReader) { reader = CSVReader(input) }

  public func next() throws -> Result<ImportRow, RowError>? {
    let columns = try self.columns ?? readHeader()
    guard try reader.next() else { return nil }
    if let problem = reader.problem {
      return .failure(RowError(line: reader.line, message: problem))
    }
    guard reader.fieldCount == columns.count else {
      return .failure(
        RowError(
          line: reader.line,
          message: "the row has \(reader.fieldCount) fields but the header has \(columns.count); "
            + "quote fields that hold commas"))
    }
    var row = ImportRow(line: reader.line)
    for (index, column) in columns.enumerated() where !reader.fieldIsEmpty(index) {
      guard let text = reader.field(index) else {
        return .failure(
          RowError(
            line: reader.line,
            message: "the \(column.rawValue) field is not UTF-8 text; save the file as UTF-8"))
      }
      switch column {
      case .id: row.id = text
      case .at: row.at = text
      case .activity: row.activity = FormulaGuard.unguarded(text)
      case .kind: row.kind = text
      case .duration: row.duration = text
      case .note: row.note = FormulaGuard.unguarded(text)
      case .quantity: row.quantity = text
      case .unit: row.unit = FormulaGuard.unguarded(text)
      case .tags:
        row.tags = FormulaGuard.unguarded(text).split(separator: ExchangeColumn.tagSeparator)
          .map(String.init)
      }
    }
    return .success(row)
  }

  private func readHeader() throws -> [ExchangeColumn] {
    guard try reader.next() else {
      throw InputError(
        "The input is empty; a CSV import starts with a header row such as '\(ExchangeColumn.allCases.map(\.rawValue).joined(separator: ","))'"
      )
    }
    if let problem = reader.problem {
      throw InputError("line \(reader.line) (the header): \(problem)")
    }
    var columns: [ExchangeColumn] = []
    for index in 0..<reader.fieldCount {
      let name = (reader.field(index) ?? "").trimmingSpaces().lowercased()
      guard let column = ExchangeColumn(rawValue: name) else {
        throw InputError(
          "line \(reader.line) (the header): unknown column '\(name)'; the columns are \(ExchangeColumn.list)"
        )
      }
      guard !columns.contains(column) else {
        throw InputError(
          "line \(reader.line) (the header): column '\(name)' appears twice; keep one")
      }
      columns.append(column)
    }
    for required in [ExchangeColumn.at, .activity] where !columns.contains(required) {
      throw InputError(
        "line \(reader.line) (the header): the '\(required.rawValue)' column is missing; "
          + "'at' and 'activity' are required")
    }
    self.columns = columns
    return columns
  }
}

// MARK: - JSON Lines

/// Import rows from JSON Lines: one object per line, as `lifelog list --format json` writes each
/// entry.
///
/// Blank lines are skipped.
public final class JSONLinesImportRecords: ImportRecords {
  private let input: ChunkedReader
  private var index = 0
  private var started = false
  private var line: [UInt8] = []
  private var lineNumber = 0

  public init(_ input: ChunkedReader) { self.input = input }

  public func next() throws -> Result<ImportRow, RowError>? {
    while try readLine() {
      if line.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) { continue }
      do throws(InputError) {
        return .success(try row(from: JSONValue.parse(line)))
      } catch {
        return .failure(RowError(line: lineNumber, message: error.message))
      }
    }
    return nil
  }

  /// Reads the next line (without its LF) into ``line``; false at the end of the input.
  ///
  /// - Throws: ``InputError`` for a line longer than ``RecordLimit/bytes``, before holding more
  ///   of it than that and one chunk.
  private func readLine() throws -> Bool {
    line.removeAll(keepingCapacity: true)
    var any = false
    while true {
      if index == input.count {
        index = 0  // at the end too: the input then holds no bytes
        guard try input.refill() else {
          if any { lineNumber += 1 }
          return any
        }
        if !started {
          started = true
          if input.count >= 3, input.chunk[0] == 0xEF, input.chunk[1] == 0xBB,
            input.chunk[2] == 0xBF
          {
            index = 3
          }
        }
        continue
      }
      any = true
      let start = index
      while index < input.count, input.chunk[index] != 0x0A { index += 1 }
      line.append(contentsOf: UnsafeBufferPointer(rebasing: input.chunk[start..<index]))
      guard line.count <= RecordLimit.bytes else {
        throw RecordLimit.exceeded(line: lineNumber + 1, what: "the JSON line")
      }
      if index < input.count {
        index += 1
        lineNumber += 1
        return true
      }
    }
  }

  private func row(from value: JSONValue) throws(InputError) -> ImportRow {
    guard case .object(let members) = value else {
      throw InputError("the line is not a JSON object; write one entry object per line")
    }
    var row = ImportRow(line: lineNumber)
    for (key, value) in members {
      if value.isNull { continue }
      switch key {
      case "id": row.id = try text(value, key)
      case "at": row.at = try text(value, key)
      case "activity": row.activity = try text(value, key)
      case "kind": row.kind = try text(value, key)
      case "note": row.note = try text(value, key)
      case "unit": row.unit = try text(value, key)
      case "duration":
        if let seconds = value.integer {
          row.duration = String(seconds)
        } else {
          row.duration = try text(value, key)
        }
      case "quantity":
        if let number = value.number {
          row.quantity = JSONText.number(number)
        } else {
          row.quantity = try text(value, key)
        }
      case "tags":
        guard case .array(let items) = value else {
          throw InputError("'tags' must be an array of strings")
        }
        row.tags = try items.map { item throws(InputError) in try text(item, key) ?? "" }
      case "source": row.source = .some(try text(value, key))
      case "deleted": continue  // export writes only live entries; an import never deletes
      default:
        throw InputError("unknown field '\(key)'; the fields are \(ExchangeColumn.list), source")
      }
    }
    if members["source"] == .null { row.source = .some(nil) }
    return row
  }

  /// A string member (empty reads as missing).
  private func text(_ value: JSONValue, _ key: String) throws(InputError) -> String? {
    guard let text = value.string else { throw InputError("'\(key)' must be a string") }
    return text.isEmpty ? nil : text
  }
}
