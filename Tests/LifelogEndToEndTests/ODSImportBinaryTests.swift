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
}
