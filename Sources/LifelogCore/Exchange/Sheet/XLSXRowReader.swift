/// The rows of one worksheet part of an xlsx, cell by cell as the XML streams by.
struct XLSXRowReader {
  let path: String
  let strings: [String]
  let dateStyles: [Bool]

  /// The cell being read.
  private struct Cell {
    var column = 0
    var type = "n"
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
          rowNumber = try Self.number(xml.attribute("r"), after: rowNumber, path: path)
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
          cell.column =
            try xml.attribute("r").map { try Self.column($0, path: path) } ?? cells.count
          cell.type = xml.attribute("t") ?? "n"
          cell.style = xml.attribute("s").flatMap { Int($0) } ?? 0
        } else if named("v") || named("t") {
          capturing = true
          cell.hasValue = true
        } else if named("f") {
          cell.formula = true
        }
      case .text:
        guard capturing else { continue }
        cell.text += xml.value
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
    let where_ = "cell \(ColumnLetters.name(cell.column))\(row)"
    guard cell.hasValue else {
      if cell.formula {
        throw InputError(
          "'\(path)': \(where_) holds a formula without its value; lifelog never evaluates "
            + "formulas: open the file in your spreadsheet and save it again")
      }
      return .empty
    }
    switch cell.type {
    case "s":
      guard let index = Int(cell.text.trimmingSpaces()), index >= 0, index < strings.count else {
        throw InputError(
          "'\(path)': \(where_) names shared string '\(cell.text)', which the file does not have")
      }
      return strings[index].isEmpty ? .empty : .text(strings[index])
    case "inlineStr", "str", "e", "d": return cell.text.isEmpty ? .empty : .text(cell.text)
    case "b": return .bool(cell.text.trimmingSpaces() == "1")
    default:
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
    _ text: String?, after last: Int, path: String
  ) throws(InputError)
    -> Int
  {
    let number = text.flatMap { Int($0) } ?? last + 1
    guard number >= 1, number <= SheetLimits.rows else {
      throw InputError("'\(path)': row \(text ?? "") is outside 1–\(SheetLimits.rows)")
    }
    return number
  }

  /// The column of a cell reference (`B7` is 1).
  private static func column(_ reference: String, path: String) throws(InputError) -> Int {
    let letters = String(decoding: reference.utf8.prefix { (65...90).contains($0) }, as: UTF8.self)
    guard let index = ColumnLetters.index(letters), index < SheetLimits.columns else {
      throw InputError(
        "'\(path)': cell '\(reference)' is outside the \(SheetLimits.columns) columns a sheet has")
    }
    return index
  }
}
