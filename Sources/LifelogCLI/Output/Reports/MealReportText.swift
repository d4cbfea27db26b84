import LifelogCore

/// The meal diary as aligned text for a terminal: a block per day, then the summary; or, compact,
/// a line per day.
struct MealReportText {
  let report: MealReport
  let style: ReportStyle
  /// The language it is written in (read once: each lookup of the task-local costs a little).
  private let tr = Translation.current

  private var settings: ReportSettings { report.settings }

  /// The title and the line that says how to read the report.
  func heading() -> String {
    var text =
      style.bold(tr.format("Meals, {range}", ["range": ReportText.range(report.range)]))
      + forName() + "\n"
    let time = ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes)
    if settings.mealGapMinMinutes > 0 {
      text += tr.format(
        "Days start at {time}; gaps under {minimum} (<) or over {limit} (!) are flagged; times are on the clock where each meal was logged.",
        [
          "time": time, "minimum": ReportText.hours(minutes: settings.mealGapMinMinutes),
          "limit": ReportText.gapLimit(settings),
        ])
    } else {
      text += tr.format(
        "Days start at {time}; gaps over {limit} are flagged with !; times are on the clock where each meal was logged.",
        ["time": time, "limit": ReportText.gapLimit(settings)])
    }
    return text + "\n"
  }

  private func forName() -> String {
    settings.name.isEmpty ? "" : ", " + settings.name
  }

  // MARK: - Full

  /// Every day with its meals, then the summary.
  ///
  /// Written as UTF-8 bytes, not appended to a `String`: a report over 100,000 meals is as many
  /// lines, and appending bytes costs a fraction of appending strings.
  func full() -> String {
    var text = ""
    full { text += $0 }
    return text
  }

  /// The same, handed to `write` a piece (about 64 KiB) at a time, so a long report is never
  /// held whole.
  func full(_ write: (String) -> Void) {
    var bytes = ReportBytes()
    let columns = Columns(report)
    var names = VisibleName()
    bytes.reserve(1 << 17)
    bytes.append(heading())
    for day in report.days {
      bytes.append("\n" + dayHeader(day) + "\n")
      if let overnight = day.overnightGapMinutes {
        bytes.append(
          style.dim("  " + tr.format("overnight gap {gap}", ["gap": ReportText.minutes(overnight)]))
            + "\n")
      }
      for meal in day.meals { appendLine(meal, columns, &names, to: &bytes) }
      if bytes.count >= 1 << 16 {
        write(bytes.string)
        bytes.removeAll()
      }
    }
    bytes.append("\n" + summary())
    write(bytes.string)
  }

  private func dayHeader(_ day: MealDay) -> String {
    let label = style.bold(ReportText.day(day.date, settings))
    guard let summary = ReportText.mealDaySummary(day, settings, emphasis: style.flagged) else {
      return label + ": " + style.warning(tr("no meals"))
    }
    return label + ": " + summary
  }

  /// Appends `  07:30  snack      2h30m    apple`.
  private func appendLine(
    _ meal: Meal, _ columns: Columns, _ names: inout VisibleName, to bytes: inout ReportBytes
  ) {
    bytes.spaces(2)
    let timeStart = bytes.count
    bytes.clock(meal.time)
    if meal.isAway {
      bytes.append(" UTC")
      bytes.offset(minutes: meal.time.offsetMinutes)
    }
    bytes.spaces(columns.time - (bytes.count - timeStart) + 2)
    let (name, width) = names.of(report.activityName(of: meal))
    bytes.append(name)
    bytes.spaces(columns.activity - width + 2)
    if let gap = meal.gapMinutes {
      if let flag = meal.gapFlag {
        // Byte by byte too: a diary of snacks flags nearly every gap.
        bytes.append(style.flaggedStart)
        bytes.spaces(columns.gap - ReportText.minutesWidth(gap))
        bytes.minutes(gap)
        bytes.append(byte: UInt8(ascii: " "))
        bytes.append(flag.textMark)
        bytes.append(style.flaggedEnd)
      } else {
        bytes.spaces(columns.gap - ReportText.minutesWidth(gap))
        bytes.minutes(gap)
        bytes.spaces(2)
      }
    } else {
      bytes.spaces(columns.gap + 2)
    }
    if let note = report.note(of: meal), !note.isEmpty {
      bytes.spaces(2)
      bytes.append(ReportText.oneLine(note))
    } else {
      bytes.trimTrailingSpaces()
    }
    bytes.newline()
  }

  /// Column widths shared by every day, so the whole report lines up.
  private struct Columns {
    var time = 5
    var activity = 0
    var gap = 0

    init(_ report: MealReport) {
      var names = VisibleName()
      for day in report.days.withMeals {
        for meal in day.meals {
          if meal.isAway { time = max(time, 15) }
          activity = max(activity, names.of(report.activityName(of: meal)).width)
          if let gap = meal.gapMinutes { self.gap = max(self.gap, ReportText.minutesWidth(gap)) }
        }
      }
    }
  }

  /// The last activity name shown, made visible and measured once: a diary's meals come in runs
  /// of a few names, and measuring a name (counting its characters) costs more than comparing it.
  private struct VisibleName {
    private var raw = ""
    private var visible = ""
    private var width = 0

    mutating func of(_ name: String) -> (name: String, width: Int) {
      if name != raw {
        raw = name
        visible = TerminalText.visible(name)
        width = visible.count
      }
      return (visible, width)
    }
  }

  // MARK: - Summary

  /// The range summary as labelled lines.
  func summary() -> String {
    let rows = summaryRows()
    let width = rows.map(\.0.count).max() ?? 0
    var text = style.bold(tr("Summary")) + "\n"
    for (label, value) in rows { text += "  \(ReportText.pad(label, width))  \(value)\n" }
    return text
  }

  /// The summary's labels and values.
  func summaryRows() -> [(String, String)] {
    Self.summaryRows(report.summary, settings: settings, offsets: report.offsets)
  }

  /// The labels and values of `summary` (also of a diary written a day at a time).
  static func summaryRows(
    _ summary: MealSummary, settings: ReportSettings, offsets: [LoggedOffset]
  ) -> [(String, String)] {
    let tr = Translation.current
    let limit = ReportText.gapLimit(settings)
    var days = "\(summary.days)"
    if summary.daysWithoutMeals > 0 {
      days += ", " + tr.format("{count} without meals", ["count": "\(summary.daysWithoutMeals)"])
    }
    if summary.unfinishedDays > 0 { days += ReportText.unfinishedNote(summary) }
    let perDay = tr.decimal(ReportText.number(summary.mealsPerDay, decimals: 1))
    var rows = [
      (tr("Days"), days),
      (
        tr("Meals"),
        summary.days == 0
          ? tr.format("{count} so far", ["count": "\(summary.meals)"])
          : "\(summary.meals), " + tr.format("{count} per day", ["count": perDay])
      ),
    ]
    if let median = summary.medianGapMinutes, let average = summary.averageGapMinutes,
      let longest = summary.longestGapMinutes, let date = summary.longestGapDate
    {
      rows.append(
        (
          tr("Gaps between meals"),
          tr.format(
            "median {median}, average {average}",
            ["median": ReportText.minutes(median), "average": ReportText.minutes(average)])
        ))
      rows.append(
        (tr("Longest gap"), "\(ReportText.minutes(longest)) (\(ReportText.day(date)))"))
    }
    if settings.mealGapMinMinutes > 0 {
      rows.append(
        (
          tr.format(
            "Gaps under {minimum}",
            ["minimum": ReportText.hours(minutes: settings.mealGapMinMinutes)]),
          "\(summary.shortGaps)"
        ))
    }
    rows.append((tr.format("Gaps over {limit}", ["limit": limit]), "\(summary.longGaps)"))
    if let first = summary.typicalFirstMealMinute, let last = summary.typicalLastMealMinute {
      rows.append((tr("Typical first meal"), ReportText.clock(minuteOfDay: first, settings)))
      rows.append((tr("Typical last meal"), ReportText.clock(minuteOfDay: last, settings)))
    }
    rows.append(
      (
        tr("Days on rhythm"),
        tr.format(
          "{on} of {days} (meals, no gap {rule})",
          [
            "on": "\(summary.daysOnRhythm)", "days": "\(summary.days)",
            "rule": ReportText.gapRule(settings),
          ])
      ))
    if let offsets = ReportText.offsets(offsets) { rows.append((tr("Offsets"), offsets)) }
    return rows
  }

  // MARK: - Compact

  /// A line per day and a one-line summary, for `lifelog report` alone.
  func compact() -> String {
    var text = ""
    compact { text += $0 }
    return text
  }

  /// The same, handed to `write` in pieces: the table's rows (a row per day of the range) are
  /// made when written, not held.
  func compact(_ write: (String) -> Void) {
    let text =
      style.bold(tr("Meals")) + " "
      + tr.format(
        "(days start at {time}; gaps {rule} flagged)",
        [
          "time": ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes),
          "rule": ReportText.gapRule(settings),
        ]) + "\n"
    write(text)
    let (rows, flaggedRows) = compactRows()
    ReportTable(rows: rows, rightAligned: [1, 4, 5, 6], style: style)
      .render(highlight: (column: 6, rows: flaggedRows), write: write)
    write(summaryLine() + "\n")
  }

  /// A row per day (header first), made when read, and the rows that have flagged gaps.
  func compactRows() -> (rows: LazyRows, flagged: Set<Int>) {
    let header = ["DAY", "MEALS", "FIRST", "LAST", "OVERNIGHT", "LONGEST GAP", "FLAGGED"].map {
      tr($0, context: "column")
    }
    let days = report.days
    var flagged: Set<Int> = []
    for (position, day) in zip(days.positionsWithMeals, days.withMeals)
    where day.flaggedGapCount > 0 {
      flagged.insert(position + 1)
    }
    let rows = LazyRows(count: days.count + 1) { row in
      row == 0 ? header : Self.compactRow(days[row - 1], settings: settings)
    }
    return (rows, flagged)
  }

  /// The compact table's row of `day`.
  private static func compactRow(_ day: MealDay, settings: ReportSettings) -> [String] {
    let label = ReportText.day(day.date, settings)
    guard let first = day.firstMeal, let last = day.lastMeal else {
      return [label, "0", Translation.current("no meals"), "", "", "", ""]
    }
    return [
      label, "\(day.meals.count)",
      ReportText.clock(first.time, marked: first.isAway),
      ReportText.clock(last.time, marked: last.isAway),
      day.overnightGapMinutes.map(ReportText.minutes) ?? "",
      day.longestGapMinutes.map(ReportText.minutes) ?? "",
      day.flaggedGapCount == 0 ? "" : "\(day.flaggedGapCount)",
    ]
  }

  /// The summary in one sentence.
  func summaryLine() -> String {
    let summary = report.summary
    var parts = [
      tr.format(
        "{count} meals per day",
        ["count": tr.decimal(ReportText.number(summary.mealsPerDay, decimals: 1))])
    ]
    if let median = summary.medianGapMinutes, let longest = summary.longestGapMinutes {
      parts.append(
        tr.format(
          "median gap {median}, longest {longest}",
          ["median": ReportText.minutes(median), "longest": ReportText.minutes(longest)]))
    }
    if let first = summary.typicalFirstMealMinute, let last = summary.typicalLastMealMinute {
      parts.append(
        tr.format(
          "typical first meal {first}, last {last}",
          [
            "first": ReportText.clock(minuteOfDay: first, settings),
            "last": ReportText.clock(minuteOfDay: last, settings),
          ]))
    }
    parts.append(
      tr.format(
        "{on} of {days} days on rhythm",
        ["on": "\(summary.daysOnRhythm)", "days": "\(summary.days)"])
        + (summary.unfinishedDays > 0 ? ReportText.unfinishedNote(summary) : ""))
    return parts.joined(separator: "; ") + "."
  }
}
