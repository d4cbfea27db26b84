import LifelogCore

/// A week of the PDF meal report: its title, a timeline of its days (meals as marks, gaps
/// coloured against the target), and the meal table, continued on more pages when it is long.
struct WeekLayout {
  /// A line of the meal table: a meal, or a day without meals.
  struct Row {
    let day: MealDay
    let meal: Meal?
    let isFirstOfDay: Bool
  }

  let report: MealReport
  let days: [MealDay]
  let pdf: ReportPDF
  let rows: [Row]
  /// How many rows fit on the week's first page (under the timeline) and on each page after it.
  let firstPageRows: Int
  let morePageRows: Int

  /// Wide enough for a Polish day label and its small "(do tej pory)" on an unfinished day.
  static let labelWidth = 140.0
  static let tableHeader = 16.0

  init(report: MealReport, positions: Range<Int>, pdf: ReportPDF) {
    self.report = report
    self.pdf = pdf
    days = positions.map { report.days[$0] }
    var rows: [Row] = []
    for day in days {
      if day.meals.isEmpty { rows.append(Row(day: day, meal: nil, isFirstOfDay: true)) }
      for (index, meal) in day.meals.enumerated() {
        rows.append(Row(day: day, meal: meal, isFirstOfDay: index == 0))
      }
    }
    self.rows = rows
    let tableTop = Self.tableTop(days: days.count)
    firstPageRows = max(1, Int((pdf.bottom - tableTop - Self.tableHeader) / ReportPDF.rowHeight))
    morePageRows = max(
      1, Int((pdf.bottom - ReportPDF.margin - 24 - Self.tableHeader) / ReportPDF.rowHeight))
  }

  /// Where the table begins on the week's first page: under the title, timeline and legend.
  static func tableTop(days: Int) -> Double {
    ReportPDF.margin + 30 + 14 + Double(days) * ReportPDF.dayRowHeight + 34
  }

  var pageCount: Int {
    rows.count <= firstPageRows
      ? 1 : 1 + (rows.count - firstPageRows + morePageRows - 1) / morePageRows
  }

  func draw(part: Int, on canvas: PDFCanvas) {
    let tr = pdf.tr
    guard let first = days.first, let last = days.last else { return }
    var title = tr.format(
      "Week: {from} to {to}", ["from": tr.dayLabel(first.date), "to": tr.dayLabel(last.date)])
    if part > 0 { title += " (" + tr("continued") + ")" }
    canvas.text(title, .heading, x: ReportPDF.margin, y: ReportPDF.margin, width: pdf.width)
    let range: Range<Int>
    let tableTop: Double
    if part == 0 {
      drawTimeline(on: canvas, top: ReportPDF.margin + 30)
      range = 0..<min(rows.count, firstPageRows)
      tableTop = Self.tableTop(days: days.count)
    } else {
      let start = firstPageRows + (part - 1) * morePageRows
      range = start..<min(rows.count, start + morePageRows)
      tableTop = ReportPDF.margin + 24
    }
    drawTable(rows[range], on: canvas, top: tableTop)
  }

  // MARK: - Timeline

  private func drawTimeline(on canvas: PDFCanvas, top: Double) {
    let settings = report.settings
    let left = ReportPDF.margin + Self.labelWidth
    let trackWidth = pdf.width - Self.labelWidth
    let perMinute = trackWidth / 1440
    for hour in stride(from: 0, through: 24, by: 3) {
      let x = left + Double(hour * 60) * perMinute
      canvas.line(
        from: (x, top + 12), to: (x, top + 14 + Double(days.count) * ReportPDF.dayRowHeight),
        width: 0.4, .rule)
      if hour < 24 {
        canvas.text(
          ReportText.clock(minuteOfDay: hour * 60, settings), .small, x: x - 15, y: top, width: 30,
          align: .centre, .muted)
      }
    }
    var y = top + 14
    for day in days {
      drawDay(day.date, on: canvas, x: ReportPDF.margin, y: y + 3, width: Self.labelWidth - 6)
      let middle = y + ReportPDF.dayRowHeight / 2
      canvas.line(from: (left, middle), to: (left + trackWidth, middle), width: 0.3, .rule)
      var previous: Meal?
      for meal in day.meals {
        if let previous, meal.gapMinutes != nil {
          let x1 = left + Double(previous.minuteOfDay) * perMinute
          let x2 = left + Double(meal.minuteOfDay) * perMinute
          // Outside the rule: darker and taller, so it stands out in grey-scale print too.
          let (height, colour) = Self.gapStyle(meal.gapFlag)
          canvas.fill(
            x: x1, y: middle - height / 2, width: max(x2 - x1, 0.5), height: height, colour)
        }
        previous = meal
      }
      for meal in day.meals {
        let x = left + Double(meal.minuteOfDay) * perMinute
        canvas.line(from: (x, middle - 6), to: (x, middle + 6), width: 1.6, .ink)
      }
      y += ReportPDF.dayRowHeight
    }
    drawLegend(on: canvas, top: y + 8)
  }

  /// How a gap is drawn: within the rule light and low, too short blue and middling, too long
  /// dark red and tallest (the heights tell them apart in grey-scale print).
  static func gapStyle(_ flag: MealGapFlag?) -> (height: Double, colour: Colour) {
    guard let flag else { return (4.0, .within) }
    return flag.isShort ? (6.0, .short) : (8.0, .over)
  }

  private func drawLegend(on canvas: PDFCanvas, top: Double) {
    let tr = pdf.tr
    var x = ReportPDF.margin
    canvas.line(from: (x + 4, top), to: (x + 4, top + 10), width: 1.6, .ink)
    x += 12
    let meal = tr("meal")
    canvas.text(meal, .small, x: x, y: top + 1, width: 100)
    x += canvas.width(meal, .small) + 18
    let minimum = pdf.settings.mealGapMinMinutes
    var keys = [(Colour.over, 8.0, tr.format("gap over {limit}", ["limit": pdf.limit]))]
    if minimum > 0 {
      let under = ReportText.hours(minutes: minimum)
      keys.insert(
        (
          Colour.within, 4.0,
          tr.format("gap from {minimum} to {limit}", ["minimum": under, "limit": pdf.limit])
        ), at: 0)
      keys.append((Colour.short, 6.0, tr.format("gap under {limit}", ["limit": under])))
    } else {
      keys.insert(
        (Colour.within, 4.0, tr.format("gap within {limit}", ["limit": pdf.limit])), at: 0)
    }
    for (colour, height, label) in keys {
      canvas.fill(x: x, y: top + 5 - height / 2, width: 22, height: height, colour)
      x += 28
      canvas.text(label, .small, x: x, y: top + 1, width: 160)
      x += canvas.width(label, .small) + 18
    }
  }

  /// A day's label, with the small `(so far)` after it while the day is not over, as every
  /// format marks it (``ReportText/unfinishedSuffix(_:_:)``).
  private func drawDay(_ date: CivilDate, on canvas: PDFCanvas, x: Double, y: Double, width: Double)
  {
    let label = pdf.tr.dayLabel(date)
    canvas.text(label, .body, x: x, y: y, width: width)
    guard let suffix = ReportText.unfinishedSuffix(date, report.settings) else { return }
    let used = canvas.width(label, .body) + 3
    canvas.text(suffix, .small, x: x + used, y: y + 1, width: max(width - used, 1), .muted)
  }

  // MARK: - Table

  private func drawTable(_ rows: ArraySlice<Row>, on canvas: PDFCanvas, top: Double) {
    let tr = pdf.tr
    let left = ReportPDF.margin
    let columns: [(String, Double)] = [
      (tr("Day"), Self.labelWidth), (tr("Time"), 48), (tr("Activity"), 80),
      (tr("Note"), pdf.width - Self.labelWidth - 48 - 80 - 56), (tr("Gap"), 56),
    ]
    var x = left
    for (index, column) in columns.enumerated() {
      canvas.text(
        column.0, .bold, x: x, y: top, width: column.1 - 4, align: index == 4 ? .right : .left)
      x += column.1
    }
    var y = top + Self.tableHeader
    canvas.line(from: (left, y - 3), to: (left + pdf.width, y - 3), width: 0.7, .ink)
    for row in rows {
      if row.isFirstOfDay && y > top + Self.tableHeader {
        canvas.line(from: (left, y - 1.5), to: (left + pdf.width, y - 1.5), width: 0.3, .rule)
      }
      var x = left
      if row.isFirstOfDay {
        drawDay(row.day.date, on: canvas, x: x, y: y, width: columns[0].1 - 4)
      }
      x += columns[0].1
      guard let meal = row.meal else {
        canvas.text(tr("no meals"), .body, x: x, y: y, width: 200, .muted)
        y += ReportPDF.rowHeight
        continue
      }
      canvas.text(
        ReportText.clock(meal.time, marked: meal.isAway), .body, x: x, y: y, width: columns[1].1 - 4
      )
      x += columns[1].1
      canvas.text(report.activityName(of: meal), .body, x: x, y: y, width: columns[2].1 - 4)
      x += columns[2].1
      canvas.text(
        ReportText.oneLine(report.note(of: meal)), .body, x: x, y: y, width: columns[3].1 - 6)
      x += columns[3].1
      if let gap = meal.gapMinutes {
        let text = ReportText.minutes(gap) + (meal.gapFlag.map { " " + $0.textMark } ?? "")
        canvas.text(
          text, meal.isFlagged ? .bold : .body, x: x, y: y, width: columns[4].1 - 4, align: .right,
          meal.isFlagged ? Self.gapStyle(meal.gapFlag).colour : .ink)
      } else if let overnight = row.day.overnightGapMinutes {
        canvas.text(
          ReportText.minutes(overnight), .body, x: x, y: y, width: columns[4].1 - 4, align: .right,
          .muted)
      }
      y += ReportPDF.rowHeight
    }
  }
}
