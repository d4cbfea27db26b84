import LifelogCore

/// The meal report as a PDF for the doctor, the sheet first, then a page per week.
///
/// The sheet: when meals happen, the gaps against the target, the longest fasts, the notes'
/// common words. A week: a timeline of the days with meals as marks and gaps coloured against
/// the target, and the meal table. Every page says "n / N" and when it was made.
///
/// Written in the language of ``Translation/current``; the same report and "now" give the same
/// bytes (``PDFCanvas``).
struct ReportPDF {
  let report: MealReport
  /// When the report is made: printed on every page and the PDF's date.
  let made: LoggedTime
  let paper: Paper
  let tr = Translation.current

  static let margin = 42.0
  static let rowHeight = 12.5
  static let dayRowHeight = 17.0
  static let footerHeight = 24.0

  var settings: ReportSettings { report.settings }
  var width: Double { paper.width - 2 * Self.margin }
  var bottom: Double { paper.height - Self.margin - Self.footerHeight }
  var limit: String { ReportText.gapLimit(settings) }

  /// The weeks of the range (positions of its days), as the HTML report splits them.
  var weeks: [Range<Int>] {
    Array(ReportHTML.weeks(report.days, startingOn: settings.weekStartsOn))
  }

  /// Draws the report and returns the PDF's bytes.
  ///
  /// - Throws: ``PDFError`` when cairo, pango or a font is missing, or cairo fails.
  func render() throws(PDFError) -> [UInt8] {
    let title = tr("Meal rhythm")
    let canvas = try PDFCanvas(
      paper: paper, date: made.iso8601,
      title: title + ", " + ReportText.range(report.range), author: settings.name)
    let weeks = self.weeks
    let layouts = weeks.map { WeekLayout(report: report, positions: $0, pdf: self) }
    let total = 1 + layouts.reduce(0) { $0 + $1.pageCount }
    var page = 1
    drawSheet(on: canvas, title: title)
    footer(on: canvas, page: page, of: total)
    for layout in layouts {
      for part in 0..<layout.pageCount {
        canvas.nextPage()
        page += 1
        layout.draw(part: part, on: canvas)
        footer(on: canvas, page: page, of: total)
      }
    }
    canvas.nextPage()
    return try canvas.finish()
  }

  /// "Made Sunday, 6 December 2026, 21:00 · lifelog" and "n / N".
  func footer(on canvas: PDFCanvas, page: Int, of total: Int) {
    Self.footer(on: canvas, paper: paper, made: made, page: page, of: total)
  }

  /// The footer every page of every PDF report has.
  static func footer(on canvas: PDFCanvas, paper: Paper, made: LoggedTime, page: Int, of total: Int)
  {
    let tr = Translation.current
    let width = paper.width - 2 * margin
    let y = paper.height - margin - 10
    canvas.line(from: (margin, y - 4), to: (paper.width - margin, y - 4), .rule)
    let text = tr.format(
      "Made {date}, {time} with lifelog",
      ["date": tr.longDate(made.local.date), "time": made.local.timeDescription])
    canvas.text(text, .small, x: margin, y: y, width: width * 0.75, .muted)
    canvas.text("\(page) / \(total)", .small, x: margin, y: y, width: width, align: .right, .muted)
  }

  // MARK: - The sheet

  private func drawSheet(on canvas: PDFCanvas, title: String) {
    let text = MealSheetText(
      range: report.range, settings: settings, summary: report.summary, sheet: MealSheet(report))
    let left = Self.margin
    var y = Self.margin
    canvas.text(title, .title, x: left, y: y, width: width * 0.6)
    if !settings.name.isEmpty {
      canvas.text(settings.name, .heading, x: left, y: y + 4, width: width, align: .right)
    }
    y += 28
    y += canvas.text(text.period, .heading, x: left, y: y, width: width)
    y += canvas.text(text.logged, .body, x: left, y: y + 2, width: width, wraps: true, .muted) + 16
    y = drawProfile(text, on: canvas, top: y)
    y = drawGapFigures(text, on: canvas, top: y + 14)
    y = drawFasts(text, on: canvas, top: y + 14)
    drawWords(text, on: canvas, top: y + 14)
  }

  /// The hour-of-day profile: a bar per hour, the share of days with a meal in it.
  private func drawProfile(_ text: MealSheetText, on canvas: PDFCanvas, top: Double) -> Double {
    let left = Self.margin
    var y = top
    y += canvas.text(text.profileHeading, .heading, x: left, y: y, width: width) + 2
    y += canvas.text(text.profileNote, .small, x: left, y: y, width: width, .muted) + 6
    let chartHeight = 110.0
    let axis = 30.0
    let plotLeft = left + axis
    let plotWidth = width - axis
    let column = plotWidth / 24
    for share in [0.5, 1.0] {
      let lineY = y + chartHeight * (1 - share)
      canvas.line(from: (plotLeft, lineY), to: (plotLeft + plotWidth, lineY), .rule, dashed: true)
      canvas.text(
        ReportText.percent(share * 100), .small, x: left, y: lineY - 4, width: axis - 3,
        align: .right, .muted)
    }
    for (hour, share) in text.sheet.hourShares.enumerated() where share > 0 {
      let height = chartHeight * min(share, 1)
      canvas.fill(
        x: plotLeft + Double(hour) * column + 1.5, y: y + chartHeight - height, width: column - 3,
        height: height, .bar)
    }
    let baseline = y + chartHeight
    canvas.line(from: (plotLeft, baseline), to: (plotLeft + plotWidth, baseline), width: 0.8, .ink)
    for hour in stride(from: 0, to: 24, by: 2) {
      let clock = ReportText.clock(minuteOfDay: hour * 60, settings)
      canvas.text(
        clock, .small, x: plotLeft + Double(hour) * column - 15, y: baseline + 3, width: 30,
        align: .centre, .muted)
    }
    return baseline + 14
  }

  /// Four figures in boxes: median gap, longest gap, daytime gaps within the target, days
  /// fully within it.
  private func drawGapFigures(_ text: MealSheetText, on canvas: PDFCanvas, top: Double) -> Double {
    let left = Self.margin
    var y = top
    y += canvas.text(text.gapsHeading, .heading, x: left, y: y, width: width) + 6
    let boxWidth = (width - 18) / 4
    let boxHeight = 64.0
    for (index, figure) in text.figures.enumerated() {
      let x = left + Double(index) * (boxWidth + 6)
      canvas.fill(x: x, y: y, width: boxWidth, height: boxHeight, .band)
      canvas.text(
        figure.label, .small, x: x + 7, y: y + 5, width: boxWidth - 14, wraps: true, .muted)
      canvas.text(figure.value, .figure, x: x + 7, y: y + 23, width: boxWidth - 14)
      canvas.text(figure.detail, .small, x: x + 7, y: y + 47, width: boxWidth - 14, .muted)
    }
    return y + boxHeight
  }

  private func drawFasts(_ text: MealSheetText, on canvas: PDFCanvas, top: Double) -> Double {
    let left = Self.margin
    var y = top
    y += canvas.text(text.fastsHeading, .heading, x: left, y: y, width: width) + 4
    guard !text.sheet.longestFasts.isEmpty else {
      return y + canvas.text(text.noFasts, .body, x: left, y: y, width: width)
    }
    for fast in text.sheet.longestFasts {
      canvas.text(ReportText.minutes(fast.minutes), .bold, x: left, y: y, width: 56)
      y += canvas.text(text.span(fast), .body, x: left + 60, y: y, width: width - 60) + 2
    }
    return y
  }

  /// Each slot's frequent words on one line (a long list ends in "…"), so no note can push the
  /// sheet off its page.
  private func drawWords(_ text: MealSheetText, on canvas: PDFCanvas, top: Double) {
    let left = Self.margin
    var y = top
    y += canvas.text(text.wordsHeading, .heading, x: left, y: y, width: width) + 4
    let labelWidth = 165.0
    for (label, words) in text.words {
      canvas.text(label, .bold, x: left, y: y, width: labelWidth)
      y += canvas.text(words, .body, x: left + labelWidth, y: y, width: width - labelWidth) + 3
    }
  }
}
