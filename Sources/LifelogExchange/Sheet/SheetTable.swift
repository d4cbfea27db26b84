import LifelogCore

/// One cell of a sheet as the file holds it, before any column means anything.
public enum SheetCell: Sendable, Equatable {
  case empty
  case text(String)
  case number(Double)
  case bool(Bool)
  /// A number the sheet styles as a date or time: days since 1899-12-30 (the spreadsheet
  /// serial), its fraction the time of day.
  case date(Double)

  public var isEmpty: Bool {
    if case .text(let text) = self { return text.trimmingSpaces().isEmpty }
    return self == .empty
  }

  /// The cell as a person reads it: text as it is, numbers without a needless `.0`.
  public var text: String {
    switch self {
    case .empty: ""
    case .text(let text): text
    case .number(let value), .date(let value): JSONText.number(value)
    case .bool(let value): value ? "TRUE" : "FALSE"
    }
  }
}

/// A row of a sheet and its number as the spreadsheet shows it (1 for the first row).
public struct SheetRow: Sendable {
  public var number: Int
  public var cells: [SheetCell]

  public init(number: Int, cells: [SheetCell]) {
    self.number = number
    self.cells = cells
  }

  public subscript(column: Int) -> SheetCell { column < cells.count ? cells[column] : .empty }

  /// How many cells hold something.
  var filledCount: Int { cells.reduce(0) { $0 + ($1.isEmpty ? 0 : 1) } }
}

/// The rows of one sheet (a CSV file is one sheet).
public struct SheetTable: Sendable {
  public var name: String
  public var rows: [SheetRow]
  /// What a row's ``SheetRow/number`` counts, for messages: `row` in a spreadsheet (the number
  /// at its left), `line` in a CSV file (the line the record starts on).
  public var numberedBy: String

  public init(name: String, rows: [SheetRow], numberedBy: String = "row") {
    self.name = name
    self.rows = rows
    self.numberedBy = numberedBy
  }

  /// The index in ``rows`` of the header: the first of the leading rows with the most filled
  /// cells, so a title row above the header (a merged cell or two) is passed over.
  public var headerIndex: Int? {
    let leading = rows.prefix(20)
    guard let most = leading.map(\.filledCount).max(), most > 0 else { return nil }
    return leading.firstIndex { $0.filledCount == most }
  }
}

/// Spreadsheet column letters: `A` is column 0, `Z` 25, `AA` 26.
public enum ColumnLetters {
  public static func name(_ index: Int) -> String {
    var index = index
    var letters: [Character] = []
    repeat {
      letters.insert(Character(UnicodeScalar(UInt8(65 + index % 26))), at: 0)
      index = index / 26 - 1
    } while index >= 0
    return String(letters)
  }

  /// The column `letters` names (`B`, `aa`), or nil when it is not one to three letters.
  public static func index(_ letters: String) -> Int? {
    let bytes = letters.utf8
    guard (1...3).contains(bytes.count),
      bytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) })
    else { return nil }
    var index = 0
    for byte in letters.uppercased().utf8 { index = index * 26 + Int(byte - 64) }
    return index - 1
  }
}
