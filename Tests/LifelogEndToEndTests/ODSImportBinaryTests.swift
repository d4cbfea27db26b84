import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog import FILE.ods` through the real binary, with a sheet odfpy writes as LibreOffice
/// does: typed date, time and float cells, a title row above the header, repeated empty cells.
@Suite struct ODSImportBinaryTests {
  let folder = TemporaryDirectory()
  static let python = XLSXImportBinaryTests.python

  var environment: [String: String] {
    [
      "LIFELOG_DB": folder.file("log.db"), "TZ": "Europe/Warsaw",
      "LIFELOG_NOW": "2026-12-10T12:00:00+01:00",
    ]
  }

  func lifelog(_ arguments: [String]) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment)
  }

  static let polishSheet = """
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableRow, TableCell
    from odf.text import P
    doc = OpenDocumentSpreadsheet()
    table = Table(name="Dziennik")
    def row(*cells):
        tr = TableRow()
        for cell in cells:
            tr.addElement(cell)
        table.addElement(tr)
    def text(value):
        cell = TableCell(valuetype="string")
        cell.addElement(P(text=value))
        return cell
    def date(value, shown):
        cell = TableCell(valuetype="date", datevalue=value)
        cell.addElement(P(text=shown))
        return cell
    def time(value, shown):
        cell = TableCell(valuetype="time", timevalue=value)
        cell.addElement(P(text=shown))
        return cell
    def number(value):
        cell = TableCell(valuetype="float", value=value)
        cell.addElement(P(text=str(value).replace(".", ",")))
        return cell
    row(text("Mój dziennik"))
    row(text("Data"), text("Godzina"), text("Posiłek"), text("Co zjadłem"), text("Kcal"))
    row(date("2026-12-06", "06.12.2026"), time("PT07H30M00S", "07:30"), text("śniadanie"),
        text("owsianka z jabłkiem"), number(350.5), TableCell(numbercolumnsrepeated=1000))
    row(date("2026-12-06", "06.12.2026"), time("PT12H15M00S", "12:15"), text("obiad"),
        text("=zupa"))
    row(date("2026-12-07T08:00:00", "07.12.2026 08:00"), TableCell(), text("śniadanie"),
        text("jajecznica"))
    table.addElement(TableRow(numberrowsrepeated=1048000))
    doc.spreadsheet.addElement(table)
    doc.save("dziennik.ods")
    """

  @Test func anOdfpySheetImportsOnceWithItsTypedCells() throws {
    try XLSXImportBinaryTests.runPython(Self.polishSheet, in: folder)
    let path = folder.file("dziennik.ods")
    let proposal = try lifelog(["import", path])
    #expect(proposal.exitCode == 65, "\(proposal)")
    #expect(
      proposal.stderr.contains(
        "--map at=Data+Godzina --map activity=Posiłek --map note=\"Co zjadłem\" --map quantity=Kcal"
      ),
      "\(proposal.stderr)")
    let map = [
      "--map", "at=Data+Godzina", "--map", "activity=Posiłek", "--map", "note=Co zjadłem",
      "--map", "quantity=Kcal", "--kind", "meal",
    ]
    let first = try lifelog(["import", path] + map)
    #expect(first.stdout.hasPrefix("Imported: 3 added"), "\(first)")
    let export = try lifelog(["export", "--format", "csv"])
    #expect(export.stdout.contains("2026-12-06T07:30:00+01:00,śniadanie"), "\(export.stdout)")
    #expect(export.stdout.contains("2026-12-06T12:15:00+01:00,obiad"), "\(export.stdout)")
    #expect(export.stdout.contains("2026-12-07T08:00:00+01:00,śniadanie"), "\(export.stdout)")
    #expect(export.stdout.contains("350.5"), "\(export.stdout)")
    let again = try lifelog(["import", path] + map)
    #expect(again.stdout.hasPrefix("Imported: 0 added, 0 updated, 3 unchanged"), "\(again)")
  }

  /// An ods of the given content.xml body (inside `<office:spreadsheet>`), zipped by Python.
  func handMadeODS(_ table: String, prefix: String = "") throws -> String {
    try
      (prefix
      + "<office:document-content "
      + "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
      + "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" "
      + "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\">"
      + "<office:body><office:spreadsheet><table:table table:name=\"S\">"
      + "<table:table-row><table:table-cell><text:p>Kiedy</text:p></table:table-cell>"
      + "<table:table-cell><text:p>Co</text:p></table:table-cell></table:table-row>"
      + table + "</table:table></office:spreadsheet></office:body></office:document-content>")
      .write(toFile: folder.file("content.xml"), atomically: true, encoding: .utf8)
    try XLSXImportBinaryTests.runPython(
      """
      import zipfile
      with zipfile.ZipFile("hostile.ods", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.write("content.xml")
      """, in: folder)
    return folder.file("hostile.ods")
  }

  func refused(_ path: String, saying words: String) throws {
    let result = try lifelog(
      [
        "import", path, "--map", "at=Kiedy", "--map", "note=Co", "--activity", "meal", "--kind",
        "meal",
      ])
    #expect(result.exitCode == 65, "\(result)")
    #expect(result.stderr.contains(words), "\(result.stderr)")
    let export = try lifelog(["export", "--format", "jsonl"])
    #expect(export.stdout.isEmpty, "\(export.stdout)")
  }

  static let filledCell =
    "<table:table-cell office:value-type=\"string\"><text:p>x</text:p></table:table-cell>"

  @Test func anEntityDeclarationIsRefused() throws {
    let path = try handMadeODS(
      "<table:table-row><table:table-cell><text:p>&x;</text:p></table:table-cell></table:table-row>",
      prefix: "<?xml version=\"1.0\"?><!DOCTYPE office:document-content [<!ENTITY x \"boom\">]>")
    try refused(path, saying: "declares the entity 'x' (<!ENTITY>)")
  }

  @Test func aFilledCellRepeatedTenMillionTimesIsRefused() throws {
    let cell = Self.filledCell.replacing(
      "<table:table-cell ", with: "<table:table-cell table:number-columns-repeated=\"10000000\" ")
    let path = try handMadeODS("<table:table-row>\(cell)</table:table-row>")
    try refused(path, saying: "has more than 16384 cells")
  }

  @Test func aFilledRowRepeatedPastTheCellsASheetHoldsIsRefused() throws {
    let row =
      "<table:table-row table:number-rows-repeated=\"1000000\">"
      + String(repeating: Self.filledCell, count: 10) + "</table:table-row>"
    let path = try handMadeODS(row)
    try refused(path, saying: "more than 4000000 cells")
  }

  /// `<text:s text:c="64"/>` writes 64 spaces from 20 bytes of XML: the bound of a cell's text
  /// holds for them as for text (4,000 of them are 256,000 spaces, past the 131,072 bytes).
  @Test func spacesWrittenAsTextSKeepTheCellBound() throws {
    let spaces = String(repeating: "<text:s text:c=\"64\"/>", count: 4_000)
    let row =
      "<table:table-row><table:table-cell><text:p>2026-12-06 07:30</text:p></table:table-cell>"
      + "<table:table-cell><text:p>a\(spaces)</text:p></table:table-cell></table:table-row>"
    let path = try handMadeODS(row)
    try refused(path, saying: "holds more than 131072 bytes")
  }
}
