import Foundation
import LifelogCore
import LifelogExchange
import LifelogTestSupport
import Testing

/// A sheet of the person's own shape through the importer in process, from a real file of each
/// kind (a CSV sheet, an xlsx and an ods zipped by Python's standard library): the entries it
/// makes, and a second import that adds nothing.
@Suite struct SheetImportTests {
  /// The rows every kind of sheet here holds: a header, then two meals.
  static let header = ["Kiedy", "Posiłek", "Co"]

  func importTwice(_ harness: ImportHarness, _ table: () throws -> SheetTable) throws {
    let map = ["at=Kiedy", "activity=Posiłek", "note=Co"]
    #expect(try harness.importSheet(table(), map: map).added == 2)
    let again = try harness.importSheet(table(), map: map)
    #expect((again.added, again.updated, again.unchanged) == (0, 0, 2))
    let entries = try harness.entries()
    #expect(entries.map(\.activityName) == ["śniadanie", "obiad"])
    #expect(
      entries.map(\.time.iso8601) == ["2026-12-06T07:30:00+01:00", "2026-12-06T12:15:00+01:00"])
    #expect(entries.map(\.note) == ["owsianka", "=zupa"])
  }

  @Test func aCSVSheetWithSemicolonsAndDayFirstDates() throws {
    let harness = try ImportHarness()
    let path = try harness.write(
      "Kiedy;Posiłek;Co\r\n06.12.2026 07:30;śniadanie;owsianka\r\n06.12.2026 12:15;obiad;=zupa\r\n",
      to: "dziennik.csv")
    try importTwice(harness) {
      try CSVSheet.read(
        Array(try Data(contentsOf: URL(fileURLWithPath: path))), name: "dziennik.csv")
    }
  }

  @Test func anXLSXSheetWithADateCellAndStrings() throws {
    let harness = try ImportHarness()
    // 46362 is 2026-12-06 in Excel's serial days; .3125 is 07:30, .51041666 12:15.
    try harness.python(
      #"""
      import zipfile
      ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
      rel = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
      def s(ref, index): return '<c r="%s" t="s"><v>%d</v></c>' % (ref, index)
      def t(ref, text): return '<c r="%s" t="inlineStr"><is><t>%s</t></is></c>' % (ref, text)
      def d(ref, serial): return '<c r="%s" s="1"><v>%s</v></c>' % (ref, serial)
      rows = [
        '<row r="1">' + s("A1", 0) + s("B1", 1) + s("C1", 2) + '</row>',
        '<row r="2">' + d("A2", "46362.3125") + t("B2", "śniadanie") + t("C2", "owsianka") + '</row>',
        '<row r="3">' + d("A3", "46362.510416666664") + t("B3", "obiad") + t("C3", "=zupa") + '</row>',
      ]
      with zipfile.ZipFile("dziennik.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
          z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
          z.writestr("xl/workbook.xml", '<workbook %s %s><sheets><sheet name="Dziennik" sheetId="1" r:id="rId1"/></sheets></workbook>' % (ns, rel))
          z.writestr("xl/_rels/workbook.xml.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>')
          z.writestr("xl/sharedStrings.xml", '<sst %s><si><t>Kiedy</t></si><si><t>Posiłek</t></si><si><r><t>C</t></r><r><t>o</t></r></si></sst>' % ns)
          z.writestr("xl/styles.xml", '<styleSheet %s><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="22" applyNumberFormat="1"/></cellXfs></styleSheet>' % ns)
          z.writestr("xl/worksheets/sheet1.xml", '<worksheet %s><sheetData>%s</sheetData></worksheet>' % (ns, "".join(rows)))
      """#)
    let path = harness.folder.file("dziennik.xlsx")
    try importTwice(harness) { try XLSXSheet.read(path: path, sheet: nil) }
  }

  @Test func anODSSheetWithTypedDateCells() throws {
    let harness = try ImportHarness()
    try harness.python(
      #"""
      import zipfile
      def cell(text, date=None):
          if date:
              return '<table:table-cell office:value-type="date" office:date-value="%s"><text:p>%s</text:p></table:table-cell>' % (date, text)
          return '<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>' % text
      def row(*cells): return '<table:table-row>' + "".join(cells) + '</table:table-row>'
      body = (row(cell("Kiedy"), cell("Posiłek"), cell("Co"))
        + row(cell("06.12.2026 07:30", "2026-12-06T07:30:00"), cell("śniadanie"), cell("owsianka"))
        + row(cell("06.12.2026 12:15", "2026-12-06T12:15:00"), cell("obiad"), cell("=zupa")))
      content = ('<office:document-content'
        ' xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
        '<office:body><office:spreadsheet><table:table table:name="Dziennik">' + body
        + '</table:table></office:spreadsheet></office:body></office:document-content>')
      with zipfile.ZipFile("dziennik.ods", "w", zipfile.ZIP_DEFLATED) as z:
          z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", zipfile.ZIP_STORED)
          z.writestr("content.xml", content)
      """#)
    let path = harness.folder.file("dziennik.ods")
    #expect(try ODSSheet.isODS(path: path))
    try importTwice(harness) { try ODSSheet.read(path: path, sheet: nil) }
  }
}
