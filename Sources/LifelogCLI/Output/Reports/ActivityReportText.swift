import LifelogCore

/// The activity report as aligned text: a table of every activity per period against its target,
/// then sleep per night; or, compact, the totals over the range.
struct ActivityReportText {
  let report: ActivityReport
  let style: ReportStyle
  /// The language it is written in.
  private let tr = Translation.current

  func heading() -> String {
    let name = report.settings.name.isEmpty ? "" : ", " + report.settings.name
    var text =
      style.bold(
        Translation.current.format(
          "Activities, {range}", ["range": ReportText.range(report.range)])) + name + "\n"
    switch report.grouping {
    case .day: text += tr("By day")
    case .week:
      let weekday = ReportText.weekdayNames[report.settings.weekStartsOn]
      text += tr.format(
        "By week (weeks start on {weekday})", ["weekday": tr(weekday, context: "weekday")])
    case .month: text += tr("By month")
    }
    text +=
      tr(
        "; a target is spread evenly over its days, so a period cut short by the range expects less."
      )
      + "\n"
    return text
  }

  /// Every activity per period, then sleep, handed to `write` in pieces: the tables are made a
  /// row at a time (a row per period and per night of the range, millions over the whole
  /// calendar), not held.
  func full(_ write: (String) -> Void) {
    var text = heading() + "\n"
    if report.activities.isEmpty {
      text += tr("No activities logged in this range.") + "\n"
    } else {
      write(text)
      ReportTable(rows: periodRows(), rightAligned: [2, 3, 4, 5, 6], style: style).render(
        write: write)
      text = targets()
    }
    text += "\n"
    if hasSleep {
      write(
        text + style.bold(tr("Sleep")) + " " + tr("(a night belongs to the day it begins in)")
          + "\n")
      ReportTable(rows: sleepRows(), rightAligned: [], style: style).render(write: write)
      text = averageLine(report.sleep) + "\n"
    } else {
      text += style.bold(tr("Sleep")) + ": " + tr("none logged") + "\n"
    }
    if let offsets = ReportText.offsets(report.offsets) {
      text += "\n" + tr("Offsets") + ": \(offsets)\n"
    }
    write(text)
  }

  /// The table of every activity per period (with a total row when there are several periods),
  /// header first, each row made when read.
  func periodRows() -> LazyRows {
    let periods = report.periods.count
    let block = periods + (periods > 1 ? 1 : 0)
    return LazyRows(count: 1 + report.activities.count * block) { position in
      guard position > 0 else {
        return ["ACTIVITY", "PERIOD", "COUNT", "DURATION", "QUANTITY", "TARGET", "REACHED"].map {
          tr($0, context: "column")
        }
      }
      let totals = report.activities[(position - 1) / block]
      let index = (position - 1) % block
      guard index < periods else {
        return ["", tr("total")] + cells(totals.total, totals.activity)
      }
      let name = index == 0 ? TerminalText.visible(totals.activity.name) : ""
      return [name, ReportText.period(report.periods[index], by: report.grouping)]
        + cells(totals.periods[index], totals.activity)
    }
  }

  /// The totals over the range, header first.
  func totalRows() -> [[String]] {
    var rows = [
      ["ACTIVITY", "COUNT", "DURATION", "QUANTITY", "TARGET", "REACHED"].map {
        tr($0, context: "column")
      }
    ]
    for totals in report.activities {
      rows.append(
        [TerminalText.visible(totals.activity.name)] + cells(totals.total, totals.activity))
    }
    return rows
  }

  /// The activities' targets, one line in the report's language, so the TARGET column can be
  /// read.
  func targets() -> String {
    let targets = report.activities.compactMap { totals in
      totals.activity.target.map {
        TerminalText.visible(totals.activity.name) + " " + ReportText.target($0)
      }
    }
    return targets.isEmpty ? "" : tr("Targets") + ": " + targets.joined(separator: ", ") + "\n"
  }

  /// COUNT, DURATION, QUANTITY, TARGET, REACHED for one amount.
  func cells(_ amount: ActivityAmount, _ activity: Activity) -> [String] {
    let duration = amount.timedCount > 0 ? ReportText.seconds(amount.durationSeconds) : ""
    var quantity = ""
    if amount.quantityCount > 0 {
      quantity =
        ReportText.number(amount.quantity, decimals: 2)
        + (activity.unit.map { " " + TerminalText.visible($0) } ?? "")
    }
    var target = ""
    var reached = ""
    if let goal = activity.target, let amountTarget = amount.targetAmount {
      target = ReportText.targetAmount(amountTarget, of: goal)
      reached = amount.percentReached.map(ReportText.percent) ?? ""
    }
    return ["\(amount.count)", duration, quantity, target, reached]
  }

  // MARK: - Sleep

  /// Whether any night in the range has a sleep entry.
  var hasSleep: Bool { !report.nights.logged.isEmpty }

  /// A row per night, header first, each made when read.
  func sleepRows() -> LazyRows {
    LazyRows(count: 1 + report.nights.count) { position in
      guard position > 0 else {
        return ["NIGHT", "BED", "UP", "SLEPT"].map { tr($0, context: "column") }
      }
      let night = report.nights[position - 1]
      guard night.entries > 0 else {
        return [ReportText.day(night.date), "", "", tr("not logged")]
      }
      let bed = night.bedtime.map { ReportText.clock($0) } ?? ""
      let up = night.wakeTime.map { ReportText.clock($0) } ?? ""
      var slept = night.sleptSeconds > 0 ? ReportText.seconds(night.sleptSeconds) : ""
      if night.entries > 1 {
        slept += " (" + tr.plural("%d entry", "%d entries", count: night.entries) + ")"
      }
      return [ReportText.day(night.date), bed, up, slept]
    }
  }

  func averageLine(_ summary: SleepSummary) -> String {
    guard let average = summary.averageSeconds, let shortest = summary.shortestSeconds,
      let longest = summary.longestSeconds
    else { return tr("No night has a sleep duration.") }
    return tr.format(
      "Average {average} over {logged} of {nights} nights (shortest {shortest}, longest {longest}).",
      [
        "average": ReportText.seconds(average), "logged": "\(summary.nightsLogged)",
        "nights": "\(summary.nights)", "shortest": ReportText.seconds(shortest),
        "longest": ReportText.seconds(longest),
      ])
  }

  // MARK: - Compact

  /// The totals over the range and one line about sleep, for `lifelog report` alone.
  func compact() -> String {
    var text = style.bold(tr("Activities")) + " " + tr("(totals over the range)") + "\n"
    if report.activities.isEmpty { return text + tr("None logged.") + "\n" }
    text += ReportTable(rows: totalRows(), rightAligned: [1, 2, 3, 4, 5], style: style).render()
    text += targets()
    return text + sleepLine()
  }

  /// The sleep summary in one line: `Sleep: 6 of 7 nights logged, average 7h40m.`.
  func sleepLine() -> String {
    let summary = report.sleep
    guard let average = summary.averageSeconds else { return "" }
    return tr("Sleep") + ": "
      + tr.format(
        "{logged} of {nights} nights logged, average {average}.",
        [
          "logged": "\(summary.nightsLogged)", "nights": "\(summary.nights)",
          "average": ReportText.seconds(average),
        ]) + "\n"
  }
}
