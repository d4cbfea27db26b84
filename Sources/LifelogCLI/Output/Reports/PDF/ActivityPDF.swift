import LifelogCore

/// The activity report as a PDF, laid out like the meal report's: a first page with the period,
/// the person and every activity's totals against its target (with the targets and the sleep
/// line), then a page per period (a week by default) with each activity's amounts in it.
///
/// The cells are the text report's (``ActivityReportText``), in the language of
/// ``Translation/current``; the same report and "now" give the same bytes.
struct ActivityPDF {
  let report: ActivityReport
  let made: LoggedTime
  let paper: Paper
  let tr = Translation.current

  /// Rows a page holds under its heading.
  static let rowsPerPage = 52
  /// The columns' shares of the width: the activity's name, then its five figures.
  static let totalColumns = [0.3, 0.12, 0.14, 0.14, 0.16, 0.14]

  var width: Double { paper.width - 2 * ReportPDF.margin }

  /// Draws the report and returns the PDF's bytes.
  ///
  /// - Throws: ``PDFError`` when cairo, pango or a font is missing, or cairo fails.
  func render() throws(PDFError) -> [UInt8] {
    let text = ActivityReportText(report: report, style: ReportStyle(colour: false))
    let title = tr("Activities")
    let canvas = try PDFCanvas(
      paper: paper, date: made.iso8601, title: title + ", " + ReportText.range(report.range),
      author: report.settings.name)
    let totals = Array(text.totalRows().dropFirst())
    let header = Array(text.totalRows().prefix(1))
    var pages: [(heading: String, header: [String], rows: [[String]], columns: [Double])] = []
    for start in stride(from: 0, to: max(totals.count, 1), by: Self.rowsPerPage) {
      pages.append(
        (
          "", header.first ?? [],
          Array(totals[start..<min(start + Self.rowsPerPage, totals.count)]),
          Self.totalColumns
        ))
    }
    let periodHeader = ["ACTIVITY", "COUNT", "DURATION", "QUANTITY", "TARGET", "REACHED"].map {
      tr($0, context: "column")
    }
    for (index, period) in report.periods.enumerated() {
      let rows = report.activities.map { totals in
        [TerminalText.visible(totals.activity.name)]
          + text.cells(totals.periods[index], totals.activity)
      }
      let heading = ReportText.period(period, by: report.grouping)
      for start in stride(from: 0, to: max(rows.count, 1), by: Self.rowsPerPage) {
        pages.append(
          (
            heading, periodHeader, Array(rows[start..<min(start + Self.rowsPerPage, rows.count)]),
            Self.totalColumns
          ))
      }
    }
    for (number, page) in pages.enumerated() {
      if number > 0 { canvas.nextPage() }
      var y = ReportPDF.margin
      if number == 0 {
        canvas.text(title, .title, x: ReportPDF.margin, y: y, width: width * 0.6)
        if !report.settings.name.isEmpty {
          canvas.text(
            report.settings.name, .heading, x: ReportPDF.margin, y: y + 4, width: width,
            align: .right)
        }
        y += 28
        let period = tr.format(
          "{from} to {to}",
          ["from": tr.longDate(report.range.from), "to": tr.longDate(report.range.to)])
        y += canvas.text(period, .heading, x: ReportPDF.margin, y: y, width: width) + 4
        y +=
          canvas.text(
            tr("Totals over the range."), .body, x: ReportPDF.margin, y: y, width: width, .muted)
          + 10
      } else {
        y += canvas.text(page.heading, .heading, x: ReportPDF.margin, y: y, width: width) + 10
      }
      y = table(page.header, page.rows, columns: page.columns, on: canvas, top: y)
      if number == 0 {
        if report.activities.isEmpty {
          y += canvas.text(
            tr("No activities logged in this range."), .body, x: ReportPDF.margin, y: y,
            width: width)
        }
        for line in [text.targets(), text.sleepLine()] where !line.isEmpty {
          y +=
            canvas.text(line, .body, x: ReportPDF.margin, y: y + 8, width: width, wraps: true) + 4
        }
      }
      ReportPDF.footer(on: canvas, paper: paper, made: made, page: number + 1, of: pages.count)
    }
    canvas.nextPage()
    return try canvas.finish()
  }

  /// A table: the header bold, a row per line; figures (every column but the first) right-aligned.
  private func table(
    _ header: [String], _ rows: [[String]], columns: [Double], on canvas: PDFCanvas, top: Double
  ) -> Double {
    let left = ReportPDF.margin
    func draw(_ cells: [String], _ font: PDFCanvas.Font, y: Double) {
      var x = left
      for (index, share) in columns.enumerated() {
        let cell = index < cells.count ? cells[index] : ""
        canvas.text(
          cell, font, x: x, y: y, width: width * share - 6, align: index == 0 ? .left : .right)
        x += width * share
      }
    }
    draw(header, .bold, y: top)
    var y = top + 15
    canvas.line(from: (left, y - 3), to: (left + width, y - 3), width: 0.7, .ink)
    for row in rows {
      draw(row, .body, y: y)
      y += ReportPDF.rowHeight
    }
    return y
  }
}
