import LifelogCore
import LifelogExchange

/// The options of `lifelog import` that read a sheet of any shape (docs/import.md "From your own
/// spreadsheet").
struct SheetOptions {
  static let specs = [map, sheet, dateFormat, separator, encoding]
  static let map = OptionSpec(
    ["--map"], value: "field=column",
    help: "Which column holds a field: at, activity, kind, duration, note, quantity, unit or "
      + "tags, by header or letter; at=Date+Time joins two columns.", repeatable: true)
  static let sheet = OptionSpec(
    ["--sheet"], value: "name|number", help: "The sheet of an xlsx or ods file to read.",
    default: "the first")
  static let dateFormat = OptionSpec(
    ["--date-format"], value: "format",
    help: "How ambiguous dates are written: d/m/yyyy or m/d/yyyy.",
    default: "decided from the dates")
  static let separator = OptionSpec(
    ["--separator"], value: "char", help: "The CSV field separator.", default: "; or , detected",
    completes: .choices([";", ",", "tab"]))
  static let encoding = OptionSpec(
    ["--encoding"], value: "name", help: "The CSV text encoding.",
    default: "UTF-8, UTF-16 or Windows-1250 detected",
    completes: .choices(SheetEncoding.allCases.map(\.rawValue)))

  var mapping = SheetMapping()
  var sheet: String?
  var dateOrder: SheetDateOrder?
  var separator: Character?
  var encoding: SheetEncoding?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    do throws(InputError) {
      mapping = try SheetMapping(parsing: arguments.all(Self.map))
      dateOrder = try arguments.value(Self.dateFormat).map(SheetDateOrder.parse)
      encoding = try arguments.value(Self.encoding).map(SheetEncoding.parse)
    } catch {
      throw UsageError(error.message)
    }
    sheet = arguments.value(Self.sheet)
    if let text = arguments.value(Self.separator) {
      let value = text.lowercased() == "tab" || text == "\\t" ? "\t" : text
      guard value.count == 1, let character = value.first, character.isASCII else {
        throw UsageError("The separator '\(text)' is not one character; use ';', ',' or tab")
      }
      separator = character
    }
  }

  /// Whether any of them was given, which makes the input a sheet.
  var areGiven: Bool {
    !mapping.isEmpty || sheet != nil || dateOrder != nil || separator != nil || encoding != nil
  }
}

extension LifelogCommand.Import {
  /// The reader of a sheet of any shape, or nil when the input is lifelog's own CSV or JSON
  /// Lines (its header names only lifelog's columns, and no sheet option was given).
  func sheetRecords(
    from input: ChunkedReader, zone: any TimeZoneRules
  ) throws -> SheetImportRecords? {
    if format == .jsonl { return nil }
    let name = path.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "stdin"
    let table: SheetTable
    if try input.firstChunk().starts(with: [0x50, 0x4B, 0x03, 0x04]) {  // a zip: xlsx or ods
      guard let path else {
        throw InputError("An xlsx or ods file cannot be read from standard input; name the file")
      }
      table =
        try ODSSheet.isODS(path: path)
        ? try ODSSheet.read(path: path, sheet: sheet.sheet)
        : try XLSXSheet.read(path: path, sheet: sheet.sheet)
    } else {
      let given = sheet.areGiven || activity != nil
      if !given {
        if format == nil, try ExchangeFormat.detect(path: path, input: input) == .jsonl {
          return nil
        }
        if Self.isOwnCSVHeader(try input.firstChunk()) { return nil }
      }
      let bytes = try input.readAll(limit: CSVSheet.byteLimit)
      table = try CSVSheet.read(
        bytes, name: name, separator: sheet.separator, encoding: sheet.encoding)
    }
    var settings = SheetImportSettings()
    settings.mapping = sheet.mapping
    settings.activity = activity
    settings.dateOrder = sheet.dateOrder
    settings.zone = zone
    return try SheetImportRecords(table: table, settings: settings)
  }

  /// Whether the first line is UTF-8 and names only lifelog's own columns, `at` and
  /// `activity` among them: such a file is read exactly as lifelog's CSV import always has.
  static func isOwnCSVHeader(_ chunk: [UInt8]) -> Bool {
    var line = chunk.starts(with: [0xEF, 0xBB, 0xBF]) ? chunk.dropFirst(3) : chunk[...]
    line = line.prefix { $0 != UInt8(ascii: "\n") }
    guard let text = String(validating: line, as: UTF8.self) else { return false }
    let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingSpaces().lowercased().filter { $0 != "\"" }
    }
    return names.allSatisfy { ExchangeColumn(rawValue: $0) != nil } && names.contains("at")
      && names.contains("activity")
  }

  /// The first rows of a dry run as they would be imported: `row 3: 2026-12-06T07:30:00+01:00
  /// breakfast — oats`.
  static func preview(_ records: SheetImportRecords, parser: TimeParser) -> String {
    let rows = records.preview(count: 5)
    guard !rows.isEmpty else { return "" }
    var text =
      "The first \(rows.count == 1 ? "row" : "\(rows.count) rows") as they would be imported:\n"
    for result in rows {
      switch result {
      case .failure(let error): text += "  row \(error.line): invalid: \(error.message)\n"
      case .success(let row):
        text += "  row \(row.line): "
        do throws(InputError) {
          let valid = try row.validated(parser: parser)
          text += "\(valid.time.iso8601)  \(valid.activity)"
          if let kind = row.kind { text += " (\(kind))" }
          if let quantity = row.quantity { text += "  \(quantity)" }
          if let duration = valid.duration { text += "  \(DurationText.format(duration))" }
          if let note = valid.note { text += "  \(note)" }
        } catch {
          text += "invalid: \(error.message)"
        }
        text += "\n"
      }
    }
    return text
  }
}

extension ChunkedReader {
  /// The rest of the input, at most `limit` bytes.
  ///
  /// - Throws: ``InputError`` when the input is longer.
  func readAll(limit: Int) throws -> [UInt8] {
    var bytes: [UInt8] = []
    while try refill() {
      guard bytes.count + count <= limit else {
        throw InputError(
          "The sheet is larger than \(limit >> 20) MiB, more than lifelog reads as one sheet; "
            + "split it")
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<count]))
    }
    return bytes
  }
}
