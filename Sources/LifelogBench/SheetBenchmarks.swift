@preconcurrency import Glibc
import LifelogCore
import LifelogExchange

/// The figure of `lifelog import FILE.xlsx --map …`: a 100,000-row sheet (a date cell with a date
/// style, a time cell, the activity, a note and a number, as Excel lays them out) into a new log,
/// in rows per second of the whole process.
extension BenchmarkSuite {
  static let sheetRows = 100_000

  func runSheetImport(report: (Figure) -> Void) throws {
    let path = folder + "/sheet-100k.xlsx"
    try StoredZip.write(path, parts: Self.sheetParts(rows: Self.sheetRows))
    sync()
    let database = folder + "/sheet-100k.db"
    try reportImport(
      "import_xlsx_100k",
      [
        "import", path, "--map", "at=Date+Time", "--map", "activity=Meal", "--map", "note=Note",
        "--map", "quantity=Kcal",
      ], into: database, rows: Self.sheetRows, of: "a 100,000-row xlsx", report: report)
    unlink(path)
  }

  /// The parts of an xlsx with one sheet of `rows` rows after its header.
  static func sheetParts(rows: Int) -> [(String, [UInt8])] {
    let main = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\""
    let relations =
      "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\""
    var sheet = "<worksheet \(main)><sheetData><row r=\"1\">"
    for (column, name) in ["Date", "Time", "Meal", "Note", "Kcal"].enumerated() {
      sheet += "<c r=\"\(ColumnLetters.name(column))1\" t=\"inlineStr\"><is><t>\(name)</t></is></c>"
    }
    sheet += "</row>"
    var bytes = Array(sheet.utf8)
    let meals = ["breakfast", "lunch", "dinner", "snack"]
    for index in 0..<rows {
      let row = index + 2
      let day = 36_526 + index / 4  // from 2000-01-01
      let minutes = (7 + 4 * (index % 4)) * 60 + index % 60
      let time = JSONText.number(Double(minutes) / 1440)
      bytes += Array(
        ("<row r=\"\(row)\"><c r=\"A\(row)\" s=\"1\"><v>\(day)</v></c>"
          + "<c r=\"B\(row)\" s=\"2\"><v>\(time)</v></c>"
          + "<c r=\"C\(row)\" t=\"inlineStr\"><is><t>\(meals[index % 4])</t></is></c>"
          + "<c r=\"D\(row)\" t=\"inlineStr\"><is><t>meal number \(index)</t></is></c>"
          + "<c r=\"E\(row)\"><v>\(300 + index % 500)</v></c></row>").utf8)
    }
    bytes += Array("</sheetData></worksheet>".utf8)
    return [
      (
        "xl/workbook.xml",
        Array(
          "<workbook \(main) \(relations)><sheets><sheet name=\"Log\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
            .utf8)
      ),
      (
        "xl/_rels/workbook.xml.rels",
        Array(
          "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Target=\"worksheets/sheet1.xml\"/></Relationships>"
            .utf8)
      ),
      (
        "xl/styles.xml",
        Array(
          "<styleSheet \(main)><cellXfs><xf numFmtId=\"0\"/><xf numFmtId=\"14\"/><xf numFmtId=\"20\"/></cellXfs></styleSheet>"
            .utf8)
      ),
      ("xl/worksheets/sheet1.xml", bytes),
    ]
  }
}

/// Writes a zip of stored (uncompressed) entries: what the benchmark's xlsx needs.
enum StoredZip {
  static func write(_ path: String, parts: [(String, [UInt8])]) throws {
    var file: [UInt8] = []
    var directory: [UInt8] = []
    func le16(_ value: Int, _ into: inout [UInt8]) {
      into += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }
    func le32(_ value: Int, _ into: inout [UInt8]) {
      le16(value & 0xFFFF, &into)
      le16(value >> 16 & 0xFFFF, &into)
    }
    for (name, bytes) in parts {
      let offset = file.count
      let crc = crc32(bytes)
      let nameBytes = Array(name.utf8)
      le32(0x0403_4B50, &file)
      for value in [20, 0, 0, 0, 0] { le16(value, &file) }
      le32(crc, &file)
      le32(bytes.count, &file)
      le32(bytes.count, &file)
      le16(nameBytes.count, &file)
      le16(0, &file)
      file += nameBytes + bytes
      le32(0x0201_4B50, &directory)
      for value in [20, 20, 0, 0, 0, 0] { le16(value, &directory) }
      le32(crc, &directory)
      le32(bytes.count, &directory)
      le32(bytes.count, &directory)
      le16(nameBytes.count, &directory)
      for value in [0, 0, 0, 0] { le16(value, &directory) }
      le32(0, &directory)
      le32(offset, &directory)
      directory += nameBytes
    }
    let start = file.count
    file += directory
    le32(0x0605_4B50, &file)
    for value in [0, 0, parts.count, parts.count] { le16(value, &file) }
    le32(directory.count, &file)
    le32(start, &file)
    le16(0, &file)
    guard let handle = fopen(path, "w"), fwrite(file, 1, file.count, handle) == file.count,
      fclose(handle) == 0
    else { throw BenchmarkError("cannot write '\(path)'") }
  }

  static func crc32(_ bytes: [UInt8]) -> Int {
    var table = [UInt32](repeating: 0, count: 256)
    for index in 0..<256 {
      var value = UInt32(index)
      for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
      table[index] = value
    }
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return Int(crc ^ 0xFFFF_FFFF)
  }
}
