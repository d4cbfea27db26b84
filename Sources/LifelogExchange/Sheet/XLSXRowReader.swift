import LifelogCore

/// The rows of one worksheet part of an xlsx, cell by cell as the XML streams by.
struct XLSXRowReader {
  let path: String
  let strings: [String]
  let dateStyles: [Bool]

  /// What a cell's `t` attribute says it holds.
  private enum CellType {
    /// `s`: an index into the shared strings.
    case shared
    /// `inlineStr`, `str` (a formula's text), `e` (an error such as `#N/A`), `d` (ISO date).
    case text
    /// `b`: `1` or `0`.
    case bool
    /// `n` or none: a number (a date when its style shows one).
    case number
  }

  /// The cell being read.
  private struct Cell {
    var column = 0
    var type = CellType.number
    var style = 0
    var formula = false
    var text = ""
    var hasValue = false
  }

  init(path: String, strings: [String], dateStyles: [Bool]) {
    self.path = path
    self.strings = strings
    self.dateStyles = dateStyles
  }

  mutating func rows(_ part: String) throws -> [SheetRow] {
    let xml = try SheetZipPart(path: path, name: part, expected: XLSXSheet.expected).xml()
    var rows: [SheetRow] = []
    var cells: [SheetCell] = []
    var rowNumber = 0
    var cellCount = 0
    var held = 0
    var cell = Cell()
    var capturing = false
    var prefixed: Bool?
    /// Whether the node is `name`: compared in place, unless the document prefixes its names.
    func named(_ name: StaticString) -> Bool {
      prefixed == true ? xml.localName == name.description : xml.isNamed(name)
    }
    while let node = try xml.nextNode() {
      switch node {
      case .doctype: throw xml.refuseDoctype(path: path, part: part)
      case .start:
        if prefixed == nil { prefixed = xml.name.contains(":") }  // the root: x:worksheet?
        if named("row") {
          rowNumber = try Self.number(
            xml.withAttribute("r", Self.digits) ?? nil, after: rowNumber, path: path)
          cells.removeAll(keepingCapacity: true)
          cellCount = 0
        } else if named("c") {
          cellCount += 1
          guard cellCount <= SheetLimits.columns else {
            throw InputError(
              "'\(path)': row \(rowNumber) has more than \(SheetLimits.columns) cells, more "
                + "than a spreadsheet row can")
          }
          cell = Cell()
          switch xml.withAttribute("r", Self.column) {
          case nil: cell.column = cells.count
          case let column??: cell.column = column
          case .some(nil):
            throw InputError(
              "'\(path)': cell '\(xml.attribute("r") ?? "")' is outside the "
                + "\(SheetLimits.columns) columns a sheet has")
          }
          cell.type = xml.withAttribute("t", Self.cellType) ?? .number
          cell.style = (xml.withAttribute("s", Self.digits) ?? nil) ?? 0
        } else if named("v") || named("t") {
          capturing = true
          cell.hasValue = true
        } else if named("f") {
          cell.formula = true
        }
      case .text:
        guard capturing else { continue }
        if cell.text.isEmpty { cell.text = xml.value } else { cell.text += xml.value }
        guard cell.text.utf8.count <= SheetLimits.textBytes else {
          throw InputError(
            "'\(path)': a cell of row \(rowNumber) holds more than \(SheetLimits.textBytes) bytes")
        }
      case .end:
        if named("v") || named("t") {
          capturing = false
        } else if named("c") {
          let value = try self.value(cell, row: rowNumber)
          guard value != .empty, cell.column >= cells.count || cells[cell.column] == .empty
          else { continue }
          if cell.column >= cells.count {
            held += cell.column + 1 - cells.count
            guard held <= SheetLimits.cells else {
              throw SheetLimits.tooMany("cells", SheetLimits.cells, path: path)
            }
            cells.append(contentsOf: repeatElement(.empty, count: cell.column + 1 - cells.count))
          }
          cells[cell.column] = value
        } else if named("row"), cells.contains(where: { !$0.isEmpty }) {
          rows.append(SheetRow(number: rowNumber, cells: cells))
        }
      }
    }
    return rows
  }

  /// The cell's value by its type: `s` shared string, `inlineStr`, `str` (a formula's text),
  /// `b` boolean, `e` error, `d` ISO date, else a number (a date when its style shows one).
  private func value(_ cell: Cell, row: Int) throws(InputError) -> SheetCell {
    var where_: String { "cell \(ColumnLetters.name(cell.column))\(row)" }
    guard cell.hasValue else {
      if cell.formula {
        throw InputError(
          "'\(path)': \(where_) holds a formula without its value; lifelog never evaluates "
            + "formulas: open the file in your spreadsheet and save it again")
      }
      return .empty
    }
    switch cell.type {
    case .shared:
      guard let index = Int(cell.text) ?? Int(cell.text.trimmingSpaces()), index >= 0,
        index < strings.count
      else {
        throw InputError(
          "'\(path)': \(where_) names shared string '\(cell.text)', which the file does not have")
      }
      return strings[index].isEmpty ? .empty : .text(strings[index])
    case .text: return cell.text.isEmpty ? .empty : .text(cell.text)
    case .bool: return .bool(cell.text.trimmingSpaces() == "1")
    case .number:
      if let number = Double(cell.text), number.isFinite {  // as written, without spaces
        let isDate = cell.style >= 0 && cell.style < dateStyles.count && dateStyles[cell.style]
        return isDate ? .date(number) : .number(number)
      }
      let text = cell.text.trimmingSpaces()
      if text.isEmpty { return .empty }
      guard let number = Double(text), number.isFinite else {
        throw InputError("'\(path)': \(where_) holds '\(text)', which is not a number")
      }
      let isDate = cell.style >= 0 && cell.style < dateStyles.count && dateStyles[cell.style]
      return isDate ? .date(number) : .number(number)
    }
  }

  /// A row number from its `r` attribute, else the one after the last.
  private static func number(
    _ given: Int?, after last: Int, path: String
  ) throws(InputError)
    -> Int
  {
    let number = given ?? last + 1
    guard number >= 1, number <= SheetLimits.rows else {
      throw InputError("'\(path)': row \(number) is outside 1–\(SheetLimits.rows)")
    }
    return number
  }

  /// The number ASCII digits write (at most 18 of them, so it cannot overflow), or nil.
  private static func digits(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard (1...18).contains(bytes.count) else { return nil }
    var number = 0
    for byte in bytes {
      guard (48...57).contains(byte) else { return nil }
      number = number * 10 + Int(byte - 48)
    }
    return number
  }

  /// The column of a cell reference's letters (`B7` is 1), or nil when they are not one to
  /// three capital letters within the columns a sheet has.
  private static func column(_ reference: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    var letters = 0
    for byte in reference {
      guard (65...90).contains(byte) else { break }
      letters += 1
      guard letters <= 3 else { return nil }
      index = index * 26 + Int(byte - 64)
    }
    guard letters > 0, index - 1 < SheetLimits.columns else { return nil }
    return index - 1
  }

  private static func cellType(_ bytes: UnsafeBufferPointer<UInt8>) -> CellType {
    if bytes.count == 1 {
      switch bytes[0] {
      case UInt8(ascii: "s"): return .shared
      case UInt8(ascii: "b"): return .bool
      case UInt8(ascii: "e"), UInt8(ascii: "d"): return .text
      default: return .number
      }
    }
    return bytes.elementsEqual("inlineStr".utf8) || bytes.elementsEqual("str".utf8)
      ? .text : .number
  }
}
