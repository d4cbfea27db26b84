import LifelogCore

/// The meal report as a workbook for the dietitian (`report meals --format xlsx`).
///
/// The summary sheet first (the figures of the text report's summary, ``MealReportText/summaryRows(_:settings:offsets:)``),
/// then a sheet per week: a row per meal with its day (a date cell), its time as logged (a time
/// cell), activity, note, the gap since the meal before (a time cell, bold red when flagged) and
/// the flag (`!` too long, `<` too short); a day without meals is a row of its own.
///
/// Written in the language of ``Translation/current`` (sheet names, headers, the summary).
struct ReportSpreadsheet {
  /// The most weeks a workbook holds (a sheet each, held in memory until written): ten years.
  static let maximumWeeks = 530

  let report: MealReport
  private let tr = Translation.current

  init(report: MealReport) { self.report = report }

  /// The weeks of the range (positions of its days), as the HTML and PDF reports split them.
  var weeks: [Range<Int>] {
    Array(ReportHTML.weeks(report.days, startingOn: report.settings.weekStartsOn))
  }

  /// Checks that the range's weeks fit in a workbook, before anything is written.
  ///
  /// - Throws: ``InputError`` (exit 65) when there are more than ``maximumWeeks``.
  static func checkRange(_ range: ReportRange) throws(InputError) {
    guard range.dayCount <= (maximumWeeks - 1) * 7 else {
      throw InputError(
        "A spreadsheet report has a sheet per week, at most \(maximumWeeks) (ten years), and \(range.from) to \(range.to) has more; give a shorter range with --from and --to"
      )
    }
  }

  /// Writes the summary sheet and the week sheets into `book`.
  func write(to book: SpreadsheetBook) throws {
    try book.sheet(tr("Summary"), header: [tr("Summary"), tr("Value")])
    let rows = MealReportText.summaryRows(
      report.summary, settings: report.settings, offsets: report.offsets)
    for (label, value) in rows {
      book.text(label, column: 0)
      book.text(value, column: 1)
      book.nextRow()
    }
    for week in weeks { try writeWeek(week, to: book) }
  }

  private func writeWeek(_ positions: Range<Int>, to book: SpreadsheetBook) throws {
    let first = report.days.date(at: positions.lowerBound)
    try book.sheet(
      tr.format("Week {date}", ["date": first.description]),
      header: [tr("Day"), tr("Time"), tr("Activity"), tr("Note"), tr("Gap"), tr("Flag")])
    for position in positions {
      let day = report.days[position]
      guard !day.meals.isEmpty else {
        book.date(day.date, column: 0)
        book.text(tr("no meals"), column: 2, style: .muted)
        book.nextRow()
        continue
      }
      for meal in day.meals {
        book.date(day.date, column: 0)
        book.timeOfDay(meal.time, column: 1)
        book.text(report.activityName(of: meal), column: 2)
        if let note = report.note(of: meal), !note.isEmpty { book.text(note, column: 3) }
        if let gap = meal.gapMinutes {
          book.duration(
            seconds: gap * 60, column: 4, style: meal.isFlagged ? .flaggedHours : .hours)
        }
        if let flag = meal.gapFlag { book.text(flag.textMark, column: 5) }
        book.nextRow()
      }
    }
  }
}
