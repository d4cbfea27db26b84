import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog import FILE.xlsx` through the real binary, with sheets written by openpyxl (as Excel
/// writes them: dates as serials with date styles, a merged title row above the header) and
/// hostile ones written byte by byte with Python's zipfile.
@Suite struct XLSXImportBinaryTests {
  let folder = TemporaryDirectory()
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
  static let python = root + "/.build/venv/bin/python"

  var environment: [String: String] {
    [
      "LIFELOG_DB": folder.file("log.db"), "TZ": "Europe/Warsaw",
      "LIFELOG_NOW": "2026-12-10T12:00:00+01:00",
    ]
  }

  func lifelog(_ arguments: [String]) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment)
  }

  /// Runs a Python script (openpyxl from scripts/import-tools.sh) in the test's folder.
  func python(_ script: String) throws { try Self.runPython(script, in: folder) }

  static func runPython(_ script: String, in folder: TemporaryDirectory) throws {
    #expect(
      FileManager.default.isExecutableFile(atPath: python),
      "\(python) is missing; run scripts/import-tools.sh (make test does)")
    let path = folder.file("make.py")
    try ("import os\nos.chdir(\(String(reflecting: folder.path)))\n" + script).write(
      toFile: path, atomically: true, encoding: .utf8)
    let output = try Subprocess.run(
      python, [path], environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
    try #require(output.status == 0, "\(output.stderr)")
  }

  func entries() throws -> [[String: Any]] {
    let export = try lifelog(["export", "--format", "jsonl"])
    return try export.stdout.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  static let polishSheet = """
    import openpyxl, datetime
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Dziennik"
    ws["A1"] = "Mój dziennik posiłków"
    ws.merge_cells("A1:D1")
    ws.append(["Data", "Godzina", "Posiłek", "Co zjadłem"])
    ws.append([datetime.date(2026, 12, 6), datetime.time(7, 30), "śniadanie", "owsianka z jabłkiem"])
    ws.append([datetime.date(2026, 12, 6), datetime.time(12, 15), "obiad", "=zupa"])
    ws["D4"].data_type = "s"
    ws.append([datetime.datetime(2026, 12, 7, 8, 0), None, "śniadanie", "jajecznica"])
    ws["B5"].number_format = "h:mm"
    other = wb.create_sheet("Waga")
    other.append(["Kiedy", "Kg"])
    other.append(["6.12.2026 7:00", 71.5])
    wb.save("dziennik.xlsx")
    """

  @Test func anOpenpyxlSheetWithATitleRowImportsOnceWithItsDatesAndNotes() throws {
    try python(Self.polishSheet)
    let path = folder.file("dziennik.xlsx")
    let proposal = try lifelog(["import", path])
    #expect(proposal.exitCode == 65, "\(proposal)")
    #expect(
      proposal.stderr.contains(
        "--map at=Data+Godzina --map activity=Posiłek --map note=\"Co zjadłem\""),
      "\(proposal.stderr)")
    let map = [
      "--map", "at=Data+Godzina", "--map", "activity=Posiłek", "--map", "note=Co zjadłem", "--kind",
      "meal",
    ]
    let first = try lifelog(["import", path] + map)
    #expect(first.stdout.hasPrefix("Imported: 3 added"), "\(first)")
    let rows = try entries()
    #expect(
      rows.map { $0["at"] as? String } == [
        "2026-12-06T07:30:00+01:00", "2026-12-06T12:15:00+01:00", "2026-12-07T08:00:00+01:00",
      ])
    #expect(rows.map { $0["note"] as? String } == ["owsianka z jabłkiem", "=zupa", "jajecznica"])
    let again = try lifelog(["import", path] + map)
    #expect(again.stdout.hasPrefix("Imported: 0 added, 0 updated, 3 unchanged"), "\(again)")
    let weight = try lifelog(
      [
        "import", path, "--sheet", "waga", "--map", "at=A", "--map", "quantity=Kg",
        "--activity", "weight", "--kind", "other",
      ])
    #expect(weight.stdout.hasPrefix("Imported: 1 added"), "\(weight)")
    let missing = try lifelog(["import", path, "--sheet", "3"] + map)
    #expect(missing.exitCode == 65)
    #expect(missing.stderr.contains("1 'Dziennik', 2 'Waga'"), "\(missing.stderr)")
  }

  /// Polish Excel's layout: a merged title row, Polish headers, dates shown as `d.m.yyyy h:mm`
  /// (serials with that number format), and one date typed as text that no calendar has.
  static let sheetWithABadRow = """
    import openpyxl, datetime
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "Dziennik"
    ws.merge_cells("A1:C1")
    ws.append(["Data", "Posiłek", "Co zjadłem"])
    ws.append([datetime.datetime(2026, 12, 6, 7, 30), "śniadanie", "owsianka"])
    ws.append(["31.2.2026 8:00", "obiad", "zupa"])
    ws.append([datetime.datetime(2026, 12, 6, 19, 0), "kolacja", "kanapki"])
    for row in (3, 5):
        ws.cell(row, 1).number_format = "d.m.yyyy h:mm"
    wb.save("zle.xlsx")
    """

  @Test func anInvalidRowIsNamedByItsSheetRowAndNothingIsWritten() throws {
    try python(Self.sheetWithABadRow)
    let path = folder.file("zle.xlsx")
    let map = [
      "--map", "at=Data", "--map", "activity=Posiłek", "--map", "note=C", "--kind", "meal",
    ]
    let refused = try lifelog(["import", path] + map)
    #expect(refused.exitCode == 65, "\(refused)")
    #expect(refused.stderr.contains("  row 4: Cannot read '31.2.2026 8:00'"), "\(refused.stderr)")
    #expect(try entries().isEmpty)
    let skipped = try lifelog(["import", path, "--skip-invalid"] + map)
    #expect(skipped.stdout.hasPrefix("Imported: 2 added"), "\(skipped)")
    #expect(skipped.stderr.contains("  row 4: "), "\(skipped.stderr)")
    #expect(
      try entries().map { $0["at"] as? String } == [
        "2026-12-06T07:30:00+01:00", "2026-12-06T19:00:00+01:00",
      ])
  }

  /// A minimal xlsx as Excel lays it out (shared strings, a date style), its sheet XML given.
  func handMadeSheet(
    _ sheet: String, strings: [String] = ["Kiedy", "Co"], claim: Int? = nil
  )
    throws -> String
  {
    let items = strings.map { "<si><t>\($0)</t></si>" }.joined()
    try python(
      """
      import zipfile, struct
      main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
      rel = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
      parts = {
        "xl/workbook.xml": f'<workbook {main} {rel}><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/sharedStrings.xml": f'<sst {main}>\(items)</sst>',
        "xl/styles.xml": f'<styleSheet {main}><numFmts><numFmt numFmtId="164" formatCode="d.m.yyyy h:mm"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>',
        "xl/worksheets/sheet1.xml": open("sheet.xml").read(),
      }
      with zipfile.ZipFile("sheet.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
          z.writestr(name, text)
      claim = \(claim.map(String.init) ?? "None")
      if claim is not None:
        data = bytearray(open("sheet.xlsx", "rb").read())
        name = b"xl/worksheets/sheet1.xml"
        at = data.find(b"PK\\x01\\x02")
        while data[at + 46:at + 46 + len(name)] != name:
          at = data.find(b"PK\\x01\\x02", at + 4)
        data[at + 24:at + 28] = struct.pack("<I", claim)
        open("sheet.xlsx", "wb").write(data)
      """)
    return folder.file("sheet.xlsx")
  }

  func writeSheetXML(_ rows: String, prefix: String = "") throws {
    try
      (prefix
      + "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
      + "<sheetData><row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"s\"><v>1</v></c></row>"
      + rows + "</sheetData></worksheet>").write(
        toFile: folder.file("sheet.xml"), atomically: true, encoding: .utf8)
  }

  static let map = [
    "--map", "at=Kiedy", "--map", "note=Co", "--activity", "meal", "--kind", "meal",
  ]

  @Test func sharedStringsDateStylesAndAFormulasCachedValueAreRead() throws {
    try writeSheetXML(
      "<row r=\"2\"><c r=\"A2\" s=\"1\"><v>46362.3125</v></c><c r=\"B2\"><f>1+1</f><v>2</v></c></row>"
        + "<row r=\"3\"><c r=\"A3\" s=\"1\"><v>46362.5</v></c><c r=\"B3\" t=\"s\"><v>2</v></c></row>"
    )
    let path = try handMadeSheet("", strings: ["Kiedy", "Co", "zupa żółta"])
    let result = try lifelog(["import", path] + Self.map)
    #expect(result.stdout.hasPrefix("Imported: 2 added"), "\(result)")
    #expect(try entries().map { $0["note"] as? String } == ["2", "zupa żółta"])
    #expect(try entries().first?["at"] as? String == "2026-12-06T07:30:00+01:00")
  }

  func refused(_ path: String, saying words: String) throws {
    let result = try lifelog(["import", path] + Self.map)
    #expect(result.exitCode == 65, "\(result)")
    #expect(result.stderr.contains(words), "\(result.stderr)")
    #expect(try entries().isEmpty)
  }

  @Test func aSharedStringIndexOutOfRangeIsRefused() throws {
    try writeSheetXML(
      "<row r=\"2\"><c r=\"A2\" s=\"1\"><v>46362.5</v></c><c r=\"B2\" t=\"s\"><v>99</v></c></row>")
    try refused(try handMadeSheet(""), saying: "cell B2 names shared string '99'")
  }

  @Test func aFormulaWithoutACachedValueIsRefused() throws {
    try writeSheetXML(
      "<row r=\"2\"><c r=\"A2\" s=\"1\"><v>46362.5</v></c><c r=\"B2\"><f>A2+1</f></c></row>")
    try refused(try handMadeSheet(""), saying: "cell B2 holds a formula without its value")
  }

  @Test func anEntityDeclarationIsRefused() throws {
    try writeSheetXML(
      "<row r=\"2\"><c r=\"A2\" s=\"1\"><v>46362.5</v></c><c r=\"B2\" t=\"inlineStr\"><is><t>&x;</t></is></c></row>",
      prefix: "<?xml version=\"1.0\"?><!DOCTYPE worksheet [<!ENTITY x \"boom\">]>")
    try refused(try handMadeSheet(""), saying: "declares the entity 'x' (<!ENTITY>)")
  }

  @Test func aRowOfMoreCellsThanASheetHasIsRefused() throws {
    let cells = (0..<20_000).map { "<c><v>\($0)</v></c>" }.joined()
    try writeSheetXML("<row r=\"2\">\(cells)</row>")
    try refused(try handMadeSheet(""), saying: "row 2 has more than 16384 cells")
  }

  @Test func aTenMillionCellRowIsRefused() throws {
    let cells = String(repeating: "<c/>", count: 10_000_000)
    try writeSheetXML("<row r=\"2\">\(cells)</row>")
    try refused(try handMadeSheet(""), saying: "row 2 has more than 16384 cells")
  }

  @Test func aZipBombIsRefused() throws {
    // 60 MB of empty cells that deflate to about 100 KB
    let row = "<row r=\"2\">" + String(repeating: "<c/>", count: 1000) + "</row>"
    try writeSheetXML(String(repeating: row, count: 15_000))
    try refused(try handMadeSheet(""), saying: "is it a zip bomb?")
  }

  @Test func aClaimedSizeOf2GBIsRefusedBeforeInflating() throws {
    try writeSheetXML("<row r=\"2\"><c r=\"A2\" s=\"1\"><v>46362.5</v></c></row>")
    try refused(
      try handMadeSheet("", claim: 2_000_000_000), saying: "claims to inflate to 2000000000")
  }
}
