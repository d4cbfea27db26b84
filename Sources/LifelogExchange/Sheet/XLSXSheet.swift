import LifelogCore

/// Reads one sheet of an xlsx file (Office Open XML, as Excel, LibreOffice and openpyxl write it)
/// into a ``SheetTable``: shared and inline strings, numbers, booleans, dates by their cell style,
/// and a formula's cached value (formulas are never evaluated).
public enum XLSXSheet {
  static let expected = "an xlsx spreadsheet"

  /// The sheet `choice` names (its name, or its number from 1), else the first.
  public static func read(path: String, sheet choice: String?) throws -> SheetTable {
    let (name, part) = try sheetPart(path: path, choice: choice)
    let strings =
      try SheetZipPart.exists(path: path, name: "xl/sharedStrings.xml")
      ? try sharedStrings(path: path) : []
    let dates =
      try SheetZipPart.exists(path: path, name: "xl/styles.xml")
      ? try XLSXStyles.dateStyles(path: path) : []
    var reader = XLSXRowReader(path: path, strings: strings, dateStyles: dates)
    let rows = try reader.rows(part)
    let file = path.split(separator: "/").last.map(String.init) ?? path
    return SheetTable(name: "\(file), sheet \(name)", rows: rows)
  }

  /// The chosen sheet's name and its part (`xl/worksheets/sheet1.xml`), from workbook.xml and
  /// its relationships.
  private static func sheetPart(path: String, choice: String?) throws -> (String, String) {
    var sheets: [(name: String, id: String)] = []
    let workbook = try SheetZipPart(path: path, name: "xl/workbook.xml", expected: expected).xml()
    while let node = try workbook.nextNode() {
      if node == .doctype { throw workbook.refuseDoctype(path: path, part: "xl/workbook.xml") }
      if node == .start, workbook.localName == "sheet", sheets.count < 1000 {
        sheets.append((workbook.attribute("name") ?? "", workbook.attribute("r:id") ?? ""))
      }
    }
    guard !sheets.isEmpty else { throw InputError("'\(path)' has no sheets") }
    let chosen = try SheetChoice.pick(sheets.map(\.name), choice, path: path)
    var target: String?
    let relations = try SheetZipPart(
      path: path, name: "xl/_rels/workbook.xml.rels", expected: expected
    ).xml()
    while let node = try relations.nextNode() {
      if node == .doctype { throw relations.refuseDoctype(path: path, part: "workbook.xml.rels") }
      if node == .start, relations.localName == "Relationship",
        relations.attribute("Id") == sheets[chosen].id
      {
        target = relations.attribute("Target")
      }
    }
    guard let target, !target.contains("..") else {
      throw InputError("'\(path)': the sheet '\(sheets[chosen].name)' has no part")
    }
    let part = target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
    return (sheets[chosen].name, part)
  }

  /// The shared strings, each the text of all its runs.
  private static func sharedStrings(path: String) throws -> [String] {
    let xml = try SheetZipPart(path: path, name: "xl/sharedStrings.xml", expected: expected).xml()
    var strings: [String] = []
    var current = ""
    var inText = false
    var phonetic = 0
    while let node = try xml.nextNode() {
      switch node {
      case .doctype: throw xml.refuseDoctype(path: path, part: "xl/sharedStrings.xml")
      case .start:
        let name = xml.localName
        if name == "si" { current = "" }
        if name == "rPh" { phonetic += 1 }
        if name == "t", phonetic == 0 { inText = true }
      case .end:
        let name = xml.localName
        if name == "t" { inText = false }
        if name == "rPh" { phonetic -= 1 }
        if name == "si" {
          guard strings.count < SheetLimits.sharedStrings else {
            throw SheetLimits.tooMany("shared strings", SheetLimits.sharedStrings, path: path)
          }
          strings.append(current)
        }
      case .text:
        guard inText else { continue }
        current += xml.value
        guard current.utf8.count <= SheetLimits.textBytes else {
          throw InputError(
            "'\(path)': a shared string is longer than \(SheetLimits.textBytes) bytes")
        }
      }
    }
    return strings
  }
}

/// How `--sheet` picks a sheet: by its name (any case), or by its number from 1.
enum SheetChoice {
  static func pick(_ names: [String], _ choice: String?, path: String) throws(InputError) -> Int {
    guard let choice else { return 0 }
    if let index = names.firstIndex(where: { $0.lowercased() == choice.lowercased() }) {
      return index
    }
    if let number = Int(choice), number >= 1, number <= names.count { return number - 1 }
    let shown = SheetNameList.joined(names.indices) {
      "\($0 + 1) " + SheetNameList.quoted(names[$0])
    }
    throw InputError(
      "'\(path)' has no sheet \(SheetNameList.quoted(choice)); its sheets are \(shown)")
  }
}

/// Which cell styles of an xlsx show a date or time: built-in number formats 14–22 and 45–47,
/// and custom formats with day, month, year, hour or second codes outside quotes and brackets.
enum XLSXStyles {
  static func dateStyles(path: String) throws -> [Bool] {
    let xml = try SheetZipPart(path: path, name: "xl/styles.xml", expected: XLSXSheet.expected)
      .xml()
    var custom: [Int: Bool] = [:]
    var styles: [Bool] = []
    var inCellFormats = false
    while let node = try xml.nextNode() {
      switch node {
      case .doctype: throw xml.refuseDoctype(path: path, part: "xl/styles.xml")
      case .start:
        let name = xml.localName
        if name == "numFmt", let id = xml.attribute("numFmtId").flatMap({ Int($0) }) {
          custom[id] = isDateFormat(xml.attribute("formatCode") ?? "")
        } else if name == "cellXfs" {
          inCellFormats = true
        } else if name == "xf", inCellFormats, styles.count < 65_536 {
          let id = xml.attribute("numFmtId").flatMap { Int($0) } ?? 0
          styles.append(custom[id] ?? ((14...22).contains(id) || (45...47).contains(id)))
        }
      case .end: if xml.localName == "cellXfs" { inCellFormats = false }
      case .text: continue
      }
    }
    return styles
  }

  /// Whether a number format shows a date or time: `d.m.yyyy`, `h:mm`, `[h]:mm` yes; `0.00`,
  /// `"day" 0`, `[Red]0` no.
  static func isDateFormat(_ code: String) -> Bool {
    var quoted = false
    var bracket: String?
    var escaped = false
    for character in code.lowercased() {
      if escaped {
        escaped = false
        continue
      }
      if var inside = bracket {
        if character == "]" {
          if ["h", "hh", "m", "mm", "s", "ss"].contains(inside) { return true }  // [h]:mm
          bracket = nil
        } else {
          inside.append(character)
          bracket = inside
        }
        continue
      }
      switch character {
      case "\\": escaped = true
      case "\"": quoted.toggle()
      case "[" where !quoted: bracket = ""
      default: if !quoted, "dmyhs".contains(character) { return true }
      }
    }
    return false
  }
}
