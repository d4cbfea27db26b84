import LifelogCore

/// Reports as Markdown (GitHub-flavoured tables), for a note, an issue or a document.
///
/// The meal diary is written a day at a time as the days close (``MealDayStream``): a heading,
/// a table per day, the summary.
struct ReportMarkdown {
  let content: ReportMarkdown.Content

  /// What the renderer reads: the whole report (the activity and compact reports), or the range
  /// and settings (the meal diary's heading; its days and summary are handed over one by one).
  struct Content {
    let kind: ReportKind
    let range: ReportRange
    let settings: ReportSettings
    var meals: MealReport? = nil
    var activity: ActivityReport? = nil
    var offsets: [LoggedOffset] = []

    init(_ content: ReportContent) {
      (kind, range, settings) = (content.kind, content.range, content.settings)
      (meals, activity, offsets) = (content.meals, content.activity, content.offsets)
    }

    init(kind: ReportKind, range: ReportRange, settings: ReportSettings) {
      (self.kind, self.range, self.settings) = (kind, range, settings)
    }
  }

  private var settings: ReportSettings { content.settings }
  private let plain = ReportStyle(colour: false)

  func render() -> String {
    var text = ""
    render { text += $0 }
    return text
  }

  /// The same, handed to `write` in pieces: the activity report's tables (a row per period and
  /// night of the range) are made and written a row at a time.
  func render(_ write: (String) -> Void) {
    switch content.kind {
    case .meals: return  // written a day at a time (mealsHeading, mealDay, mealsSummary)
    case .activity: content.activity.map { activity($0, write: write) }
    case .both: both(write)
    }
  }

  // MARK: - Meals

  /// The meal diary's title and how to read it, before its days.
  func mealsHeading() -> String {
    let tr = Translation.current
    var text =
      "# " + tr.format("Meals, {range}", ["range": ReportText.range(content.range)]) + forName()
      + "\n\n"
    text += tr.format(
      "Days start at {time}; gaps {rule} are flagged: ▲ too long, ▼ too short, doubled when an hour or more outside; times are on the clock where each meal was logged.",
      [
        "time": ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes),
        "rule": ReportText.gapRule(settings),
      ])
    text += "\n"
    return text
  }

  /// One day of the meal diary: a line, then a table of its meals.
  func mealDay(_ closed: ClosedMealDay) -> String {
    let day = closed.day
    var text = "\n### \(ReportText.day(day.date, settings))\n\n"
    let tr = Translation.current
    guard let summary = ReportText.mealDaySummary(day, settings, emphasis: { "**\($0)**" }) else {
      return text + tr("No meals.") + "\n"
    }
    text += summary + "."
    if let overnight = day.overnightGapMinutes {
      text += " " + tr.format("Overnight gap {gap}.", ["gap": ReportText.minutes(overnight)])
    }
    text +=
      "\n\n| \(tr("Time")) | \(tr("Meal")) | \(tr("Gap")) | \(tr("Note")) |\n|---|---|--:|---|\n"
    for meal in day.meals {
      let entry = closed.entry(of: meal)
      var gap = meal.gapMinutes.map(ReportText.minutes) ?? ""
      if let flag = meal.gapFlag { gap = "**\(gap) \(flag.shape) \(flag.words)**" }
      text +=
        "| \(ReportText.clock(meal.time, marked: meal.isAway)) | \(Self.escape(entry.activityName)) "
      text += "| \(gap) | \(Self.escape(ReportText.oneLine(entry.note))) |\n"
    }
    return text
  }

  /// The sheet, first after the title as on the PDF's first page: the period and days logged,
  /// the gap figures, when meals happen, the longest fasts and the notes' frequent words.
  func mealsSheet(_ sheet: MealSheetText) -> String {
    var text = "\n## \(sheet.title)\n\n**\(sheet.period)**\n\n\(sheet.logged)\n"
    text += "\n### \(sheet.gapsHeading)\n\n"
    text += table(
      [["", "", ""]] + sheet.figures.map { [$0.label, $0.value, $0.detail] }, rightAligned: [1],
      header: false)
    text += "\n### \(sheet.profileHeading)\n\n\(sheet.profileNote)\n\n"
    text += table(
      [["", ""]] + sheet.hours.map { [$0.clock, $0.percent] }, rightAligned: [1], header: false)
    text += "\n### \(sheet.fastsHeading)\n\n"
    if sheet.sheet.longestFasts.isEmpty { text += sheet.noFasts + "\n" }
    for fast in sheet.sheet.longestFasts {
      text += "- **\(ReportText.minutes(fast.minutes))** \(sheet.span(fast))\n"
    }
    text += "\n### \(sheet.wordsHeading)\n\n"
    text += table(
      [["", ""]] + sheet.words.map { [$0.label, $0.words] }, rightAligned: [], header: false)
    return text
  }

  /// The meal diary's summary, before its days.
  func mealsSummary(_ summary: MealSummary, offsets: [LoggedOffset]) -> String {
    let rows = MealReportText.summaryRows(summary, settings: settings, offsets: offsets)
    return "\n## \(Translation.current("Summary"))\n\n"
      + table([["", ""]] + rows.map { [$0.0, $0.1] }, rightAligned: [], header: false)
  }

  private func forName() -> String {
    settings.name.isEmpty ? "" : ", " + Self.escape(settings.name)
  }

  // MARK: - Activity

  private func activity(_ report: ActivityReport, write: (String) -> Void) {
    let renderer = ActivityReportText(report: report, style: plain)
    var text =
      "# "
      + Translation.current.format("Activities, {range}", ["range": ReportText.range(report.range)])
      + forName() + "\n\n"
    text +=
      String(renderer.heading().split(separator: "\n", omittingEmptySubsequences: false)[1])
      + "\n\n"
    let tr = Translation.current
    if report.activities.isEmpty {
      text += tr("No activities logged in this range.") + "\n"
    } else {
      write(text)
      table(renderer.periodRows(), rightAligned: [2, 3, 4, 5, 6], write: write)
      text = ""
      let targets = renderer.targets()
      if !targets.isEmpty { text += "\n" + Self.escape(targets) }
    }
    text += "\n## \(tr("Sleep"))\n\n"
    if renderer.hasSleep {
      write(text + tr("A night belongs to the day it begins in.") + "\n\n")
      table(renderer.sleepRows(), rightAligned: [], write: write)
      text = "\n" + renderer.averageLine(renderer.report.sleep) + "\n"
    } else {
      text += tr("None logged.") + "\n"
    }
    if let offsets = ReportText.offsets(report.offsets) {
      text += "\n" + tr("Offsets") + ": \(offsets).\n"
    }
    write(text)
  }

  // MARK: - Both, compact

  /// The compact report, handed to `write` in pieces: the meals table has a row per day of the
  /// range, made when written.
  private func both(_ write: (String) -> Void) {
    let tr = Translation.current
    var text =
      "# "
      + Translation.current.format("Report, {range}", ["range": ReportText.range(content.range)])
      + forName() + "\n"
    if let report = content.meals {
      let renderer = MealReportText(report: report, style: plain)
      text += "\n## \(tr("Meals"))\n\n"
      text +=
        tr.format(
          "Days start at {time}; gaps {rule} are flagged.",
          [
            "time": ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes),
            "rule": ReportText.gapRule(settings),
          ]) + "\n\n"
      text += renderer.summaryLine() + "\n\n"  // the summary first, where a reader looks
      write(text)
      table(renderer.compactRows().rows, rightAligned: [1, 4, 5, 6], write: write)
      text = ""
    }
    if let report = content.activity {
      let renderer = ActivityReportText(report: report, style: plain)
      text += "\n## \(tr("Activities"))\n\n\(tr("Totals over the range."))\n\n"
      if report.activities.isEmpty {
        text += tr("None logged.") + "\n"
      } else {
        text += table(renderer.totalRows(), rightAligned: [1, 2, 3, 4, 5])
        let targets = renderer.targets()
        if !targets.isEmpty { text += "\n" + Self.escape(targets) }
      }
      let sleep = renderer.sleepLine()
      if !sleep.isEmpty { text += "\n" + sleep }
    }
    if let offsets = ReportText.offsets(content.offsets) {
      text += "\n" + tr("Offsets") + ": \(offsets).\n"
    }
    write(text)
  }

  // MARK: - Tables

  /// A Markdown table; the first row is the header (title-cased), unless `header` is false, when
  /// it is an empty header row.
  private func table(_ rows: [[String]], rightAligned: Set<Int>, header: Bool = true) -> String {
    var text = ""
    table(rows, rightAligned: rightAligned, header: header) { text += $0 }
    return text
  }

  /// The same, handed to `write` in pieces of about 64 KiB, its rows read once.
  private func table<Rows: Collection>(
    _ rows: Rows, rightAligned: Set<Int>, header: Bool = true, write: (String) -> Void
  ) where Rows.Element == [String] {
    guard let first = rows.first else { return }
    let titles = header ? first.map(Self.title) : first
    var text = "| " + titles.joined(separator: " | ") + " |\n"
    text += "|" + first.indices.map { rightAligned.contains($0) ? "--:|" : "---|" }.joined() + "\n"
    for row in rows.dropFirst() {
      text += "| " + row.map(Self.escape).joined(separator: " | ") + " |\n"
      if text.utf8.count >= 1 << 16 {
        write(text)
        text = ""
      }
    }
    write(text)
  }

  /// `LONGEST GAP` as `Longest gap`.
  private static func title(_ text: String) -> String {
    guard let first = text.first else { return text }
    return first.uppercased() + text.dropFirst().lowercased()
  }

  /// Text with the characters Markdown would read as markup (or a table cell's end) escaped.
  static func escape(_ text: String) -> String {
    // Control characters, as in text output.
    let text = TerminalText.visible(text, keepingNewlines: true)
    guard text.contains(where: { "\\|*_`[]<>#".contains($0) }) else { return text }
    var result = ""
    for character in text {
      if "\\|*_`[]<>#".contains(character) { result.append("\\") }
      result.append(character)
    }
    return result
  }
}
