import LifelogCore

/// Reads one sheet of an OpenDocument spreadsheet (.ods, as LibreOffice and odfpy write it) from
/// its content.xml into a ``SheetTable``: strings, floats, booleans, dates and times by their
/// value type, repeated cells and rows, and a formula's cached value (never evaluated).
public enum ODSSheet {
  static let expected = "an OpenDocument spreadsheet (.ods)"
  static let part = "content.xml"

  /// Whether the zip at `path` is an ods (it has content.xml; an xlsx does not).
  public static func isODS(path: String) throws -> Bool {
    try SheetZipPart.exists(path: path, name: part)
  }

  /// The sheet `choice` names (its name, or its number from 1), else the first.
  public static func read(path: String, sheet choice: String?) throws -> SheetTable {
    let xml = try SheetZipPart(path: path, name: part, expected: expected).xml()
    var reader = ODSTableReader(path: path)
    var names: [String] = []
    while let node = try xml.nextNode() {
      if node == .doctype { throw xml.refuseDoctype(path: path, part: part) }
      guard node == .start, xml.isNamed("table:table") else { continue }
      let name = xml.attribute("table:name") ?? ""
      names.append(name)
      let number = names.count
      let chosen =
        choice.map { $0.lowercased() == name.lowercased() || Int($0) == number } ?? (number == 1)
      guard chosen else { continue }
      let rows = try reader.rows(xml)
      let file = path.split(separator: "/").last.map(String.init) ?? path
      return SheetTable(name: "\(file), sheet \(name)", rows: rows)
    }
    _ = try SheetChoice.pick(names, choice, path: path)  // names the sheets there are
    throw InputError("'\(path)' has no sheets")
  }
}

/// The rows of one `table:table` of content.xml, read up to its end.
struct ODSTableReader {
  let path: String
  private var held = 0

  init(path: String) { self.path = path }

  /// The cell being read and how many times it repeats.
  private struct Cell {
    var value: SheetCell = .empty
    var text = ""
    var paragraphs = 0
    var repeats = 1
    var formula = false
    var valueType: String?
  }

  mutating func rows(_ xml: XMLStreamReader) throws -> [SheetRow] {
    var rows: [SheetRow] = []
    var cells: [SheetCell] = []
    var rowNumber = 0
    var rowRepeats = 1
    var cell = Cell()
    var inParagraph = false
    var column = 0
    while let node = try xml.nextNode() {
      switch node {
      case .doctype: throw xml.refuseDoctype(path: path, part: ODSSheet.part)
      case .start:
        if xml.isNamed("table:table-row") {
          cells.removeAll(keepingCapacity: true)
          column = 0
          rowRepeats = Self.count(xml.attribute("table:number-rows-repeated"))
        } else if xml.isNamed("table:table-cell") || xml.isNamed("table:covered-table-cell") {
          cell = Cell()
          cell.repeats = Self.count(xml.attribute("table:number-columns-repeated"))
          cell.formula = xml.attribute("table:formula") != nil
          cell.valueType = xml.attribute("office:value-type")
          cell.value = try Self.typedValue(xml, type: cell.valueType, path: path)
        } else if xml.isNamed("text:p") {
          if cell.paragraphs > 0 { try append("\n", to: &cell, row: rowNumber + 1) }
          cell.paragraphs += 1
          inParagraph = true
        } else if xml.isNamed("text:s") {
          let count = min(Self.count(xml.attribute("text:c")), 64)
          try append(String(repeating: " ", count: count), to: &cell, row: rowNumber + 1)
        }
      case .text:
        guard inParagraph else { continue }
        try append(xml.value, to: &cell, row: rowNumber + 1)
      case .end:
        if xml.isNamed("text:p") {
          inParagraph = false
        } else if xml.isNamed("table:table-cell") || xml.isNamed("table:covered-table-cell") {
          var value = cell.value
          if cell.valueType == nil || cell.valueType == "string" {
            value = cell.text.isEmpty ? .empty : .text(cell.text)
          }
          if cell.formula, cell.valueType == nil {
            throw InputError(
              "'\(path)': cell \(ColumnLetters.name(column))\(rowNumber + 1) holds a formula "
                + "without its value; lifelog never evaluates formulas: save the file again")
          }
          if value.isEmpty {
            column += cell.repeats  // LibreOffice pads rows with thousands of empty cells
          } else {
            guard column + cell.repeats <= SheetLimits.columns else {
              throw InputError(
                "'\(path)': row \(rowNumber + 1) has more than \(SheetLimits.columns) cells, "
                  + "more than a spreadsheet row can")
            }
            try hold(column + cell.repeats - cells.count)
            cells.append(contentsOf: repeatElement(.empty, count: column - cells.count))
            cells.append(contentsOf: repeatElement(value, count: cell.repeats))
            column += cell.repeats
          }
        } else if xml.isNamed("table:table-row") {
          let filled = cells.contains { !$0.isEmpty }
          let copies = filled ? rowRepeats : 0  // empty rows repeated to the sheet's end: skipped
          for _ in 0..<copies {
            rowNumber += 1
            guard rowNumber <= SheetLimits.rows else {
              throw SheetLimits.tooMany("rows", SheetLimits.rows, path: path)
            }
            try hold(cells.count)
            rows.append(SheetRow(number: rowNumber, cells: cells))
          }
          if !filled { rowNumber += rowRepeats }
        } else if xml.isNamed("table:table") {
          return rows
        }
      }
    }
    return rows
  }

  /// Adds text to the cell's, within ``SheetLimits/textBytes`` whatever writes it: a text node,
  /// a paragraph's line break, or `<text:s text:c="64"/>` (64 spaces from 20 bytes of XML).
  private func append(_ text: String, to cell: inout Cell, row: Int) throws(InputError) {
    cell.text += text
    guard cell.text.utf8.count <= SheetLimits.textBytes else {
      throw InputError(
        "'\(path)': a cell of row \(row) holds more than \(SheetLimits.textBytes) bytes")
    }
  }

  private mutating func hold(_ count: Int) throws(InputError) {
    held += max(0, count)
    guard held <= SheetLimits.cells else {
      throw SheetLimits.tooMany("cells", SheetLimits.cells, path: path)
    }
  }

  /// A repeat count: at least 1, at most a sheet's rows (a hostile count is cut, not trusted).
  private static func count(_ text: String?) -> Int {
    min(max(text.flatMap { Int($0) } ?? 1, 1), SheetLimits.rows)
  }

  /// The value an `office:value-type` gives: `float`, `percentage` and `currency` as numbers,
  /// `boolean`, `date` (ISO 8601, read as text) and `time` (`PT07H30M00S`, as a fraction of a day).
  private static func typedValue(
    _ xml: XMLStreamReader, type: String?, path: String
  ) throws(InputError) -> SheetCell {
    switch type {
    case "float", "percentage", "currency":
      guard let text = xml.attribute("office:value"), let number = Double(text), number.isFinite
      else { throw InputError("'\(path)': a number cell has no number in office:value") }
      return .number(number)
    case "boolean": return .bool(xml.attribute("office:boolean-value") == "true")
    case "date": return xml.attribute("office:date-value").map(SheetCell.text) ?? .empty
    case "time":
      guard let text = xml.attribute("office:time-value"), let seconds = isoDuration(text) else {
        return .empty
      }
      return .date(Double(seconds) / 86_400)
    default: return .empty
    }
  }

  /// Seconds of an ISO 8601 duration as LibreOffice writes times: `PT07H30M00S`, `PT7H30M0.5S`.
  static func isoDuration(_ text: String) -> Int? {
    guard text.hasPrefix("PT") else { return nil }
    var total = 0.0
    var number = ""
    for character in text.dropFirst(2) {
      if character.isASCIIDigit || character == "." {
        number.append(character)
        continue
      }
      guard let value = Double(number), value < 1e6 else { return nil }
      switch character {
      case "H": total += value * 3600
      case "M": total += value * 60
      case "S": total += value
      default: return nil
      }
      number = ""
    }
    return number.isEmpty && total < 86_400 ? Int(total.rounded()) : nil
  }
}
