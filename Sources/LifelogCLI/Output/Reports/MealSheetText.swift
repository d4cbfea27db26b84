import LifelogCore

/// The meal sheet's words and figures for people, in the language of ``Translation/current``.
///
/// What the PDF's first page, and the top of the HTML and Markdown reports, write. Every format
/// reads the same ``MealSummary`` and ``MealSheet``; only the layout differs.
struct MealSheetText {
  let range: ReportRange
  let settings: ReportSettings
  let summary: MealSummary
  let sheet: MealSheet
  let tr = Translation.current

  /// One boxed figure: its label, its value, and a line under it.
  struct Figure {
    let label: String
    let value: String
    let detail: String
  }

  var title: String { tr("Meal rhythm") }

  /// "Monday, 23 November 2026 to Sunday, 6 December 2026".
  var period: String {
    tr.format(
      "{from} to {to}", ["from": tr.longDate(range.from), "to": tr.longDate(range.to)])
  }

  /// "Days logged: 13 of 14 days · meals: 46 · target: a meal at least every 3h".
  var logged: String {
    tr.format(
      "Days logged: {logged} of {days} · meals: {meals} · target: a meal at least every {limit}",
      [
        "logged": "\(summary.daysWithMeals)",
        "days": tr.plural("%d day", "%d days", count: summary.days),
        "meals": "\(summary.meals)", "limit": ReportText.gapLimit(settings),
      ]) + (summary.unfinishedDays > 0 ? ReportText.unfinishedNote(summary) : "")
  }

  var profileHeading: String { tr("When meals happen") }
  var profileNote: String { tr("Each bar: the share of logged days with a meal in that hour.") }

  /// "Gaps between meals against the target of 3h", or "of 2h–3h" with a minimum gap set.
  var gapsHeading: String {
    let target =
      settings.mealGapMinMinutes > 0
      ? ReportText.hours(minutes: settings.mealGapMinMinutes) + "–" + ReportText.gapLimit(settings)
      : ReportText.gapLimit(settings)
    return tr.format("Gaps between meals against the target of {limit}", ["limit": target])
  }

  /// Median gap, longest gap, daytime gaps within target, days fully within target.
  var figures: [Figure] {
    [
      Figure(
        label: tr("Median gap"), value: summary.medianGapMinutes.map(ReportText.minutes) ?? "–",
        detail: ""),
      Figure(
        label: tr("Longest gap"), value: summary.longestGapMinutes.map(ReportText.minutes) ?? "–",
        detail: summary.longestGapDate.map { tr.dayLabel($0) } ?? ""),
      Figure(
        label: tr("Daytime gaps within target"),
        value: sheet.percentWithin.map(ReportText.percent) ?? "–",
        detail: tr.format(
          "{within} of {gaps}",
          ["within": "\(sheet.daytimeGapsWithin)", "gaps": "\(sheet.daytimeGaps)"])),
      Figure(
        label: tr("Days fully within target"),
        value: tr.format(
          "{within} of {gaps}", ["within": "\(summary.daysOnRhythm)", "gaps": "\(summary.days)"]),
        detail: ""),
    ]
  }

  var fastsHeading: String { tr("The longest fasts") }
  var noFasts: String { tr("No gaps: fewer than two meals.") }

  /// A fast's span: "Mon 2026-11-23 19:15 to Tue 2026-11-24 08:00 (overnight)".
  func span(_ fast: MealSheet.Fast) -> String {
    var span = tr.format(
      "{from} to {to}",
      [
        "from": tr.dayLabel(fast.from.local.date) + " " + fast.from.local.timeDescription,
        "to": tr.dayLabel(fast.to.local.date) + " " + fast.to.local.timeDescription,
      ])
    if fast.overnight { span += " (" + tr("overnight") + ")" }
    return span
  }

  var wordsHeading: String { tr("Most frequent words in the notes") }

  /// Each slot's label and its words: "owsianka (4), jabłkiem (4)", or "–".
  var words: [(label: String, words: String)] {
    sheet.words.map { slot, words in
      (
        tr(slot.label),
        words.isEmpty ? "–" : words.map { "\($0.word) (\($0.count))" }.joined(separator: ", ")
      )
    }
  }

  /// The hours with meals: the clock time each report hour begins and its share, in percent.
  var hours: [(clock: String, percent: String)] {
    sheet.hourShares.enumerated().compactMap { hour, share in
      share > 0
        ? (ReportText.clock(minuteOfDay: hour * 60, settings), ReportText.percent(share * 100))
        : nil
    }
  }
}
