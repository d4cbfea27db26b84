import LifelogCore

/// The meal diary: the summary, the timeline, a section per week and a table per day, or the compact form
/// of a report that shows both meals and activities.
extension ReportHTML {
  /// The sheet (as on the PDF's first page), the summary, one timeline for the whole range,
  /// then a section per week with a table per day.
  ///
  /// `flush` is called after each day.
  func mealDiary(
    _ report: MealReport, into html: inout ReportBytes, flush: (inout ReportBytes) -> Void
  ) {
    let sheet = MealSheetText(
      range: report.range, settings: settings, summary: report.summary, sheet: MealSheet(report))
    sheetSection(sheet, into: &html)
    html += "<section class=\"summary\">\n<h2>\(Translation.current("Summary"))</h2>\n"
    summaryTable(report, into: &html)
    html += "</section>\n<section class=\"glance\">\n<h2>\(Translation.current("Timeline"))</h2>\n"
    timeline(report.days[...], report, into: &html, flush: flush)
    html += "</section>\n"
    let marks = GapFlagMarkup()
    for positions in Self.weeks(report.days, startingOn: settings.weekStartsOn) {
      let week = report.days[positions]
      guard let first = week.first, let last = week.last else { continue }
      let tr = Translation.current
      html += "<section class=\"week\">\n<h2>"
      html += tr.format("Week of {day}", ["day": ReportText.day(first.date)])
      if first.date != last.date {
        html += " <span class=\"range\">"
        html += tr.format("to {day}", ["day": ReportText.day(last.date)]) + "</span>"
      }
      html += "</h2>\n"
      for day in week {
        dayTable(day, report, marks, into: &html)
        flush(&html)
      }
      html += "</section>\n"
    }
  }

  func summaryTable(_ report: MealReport, into html: inout ReportBytes) {
    html += "<table class=\"facts\">\n<tbody>\n"
    for (label, value) in MealReportText(report: report, style: plain).summaryRows()
    where label != Translation.current("Offsets") {
      html +=
        "<tr><th scope=\"row\">\(Self.escape(label))</th><td>\(Self.escape(value))</td></tr>\n"
    }
    html += "</tbody>\n</table>\n"
  }

  func dayTable(
    _ day: MealDay, _ report: MealReport, _ marks: GapFlagMarkup, into html: inout ReportBytes
  ) {
    html += "<div class=\"day\">\n<h3>\(ReportText.day(day.date, settings))</h3>\n"
    guard
      let summary = ReportText.mealDaySummary(
        day, settings, emphasis: { "<span class=\"flag\">\($0)</span>" })
    else {
      html += "<p class=\"none\">\(Translation.current("No meals logged."))</p>\n</div>\n"
      return
    }
    let tr = Translation.current
    html += "<p class=\"daynote\">" + summary
    if let overnight = day.overnightGapMinutes {
      html += "; " + tr.format("overnight gap {gap}", ["gap": ReportText.minutes(overnight)])
    }
    html +=
      ".</p>\n<table class=\"meals\">\n<colgroup><col class=\"c-time\"/><col class=\"c-meal\"/>"
    html += "<col class=\"c-gap\"/><col/></colgroup>\n<thead><tr><th>\(tr("Time"))</th>"
    html += "<th>\(tr("Meal"))</th><th class=\"n\">\(tr("Gap"))</th>"
    html += "<th class=\"note\">\(tr("Note"))</th></tr></thead>\n<tbody>\n"
    // Written byte by byte: the diary can hold 100,000 meals.
    for meal in day.meals {
      if let flag = meal.gapFlag {
        html += marks.rowOpening(flag)
      } else {
        html += "<tr><td class=\"t\">"
      }
      html.clock(meal.time)
      if meal.isAway {
        html += " <span class=\"away-tag\">UTC"
        html.offset(minutes: meal.time.offsetMinutes)
        html += "</span>"
      }
      html += "</td><td>"
      Self.appendEscaped(report.activityName(of: meal), to: &html)
      html += "</td><td class=\"n\">"
      if let gap = meal.gapMinutes { html.minutes(gap) }
      if let flag = meal.gapFlag { html += marks.cellMark(flag) }
      html += "</td><td class=\"note\">"
      if let note = report.note(of: meal) {
        Self.appendEscaped(ReportText.oneLine(note), to: &html)
      }
      html += "</td></tr>\n"
    }
    html += "</tbody>\n</table>\n</div>\n"
  }

  func mealsCompact(
    _ report: MealReport, into html: inout ReportBytes, flush: (inout ReportBytes) -> Void
  ) {
    let tr = Translation.current
    html += "<section class=\"meals-compact\">\n<h2>\(tr("Meals"))</h2>\n"
    timeline(report.days[...], report, into: &html, flush: flush)
    let column = { (name: String) in Self.title(tr(name, context: "column")) }
    html += "<table>\n<thead><tr><th>\(column("DAY"))</th><th class=\"n\">\(column("MEALS"))</th>"
    html += "<th>\(column("FIRST"))</th><th>\(column("LAST"))</th>"
    html += "<th class=\"n\">\(column("OVERNIGHT"))</th>"
    html += "<th class=\"n\">\(column("LONGEST GAP"))</th>"
    html +=
      "<th class=\"n\">" + tr.format("Gaps {rule}", ["rule": ReportText.gapRule(settings)])
      + "</th></tr></thead>\n<tbody>\n"
    for day in report.days {
      flush(&html)
      html += day.flaggedGapCount == 0 ? "<tr>" : "<tr class=\"flagged\">"
      html +=
        "<td>\(ReportText.day(day.date, settings))</td><td class=\"n\">\(day.meals.count)</td>"
      guard let first = day.firstMeal, let last = day.lastMeal else {
        html += "<td class=\"none\" colspan=\"5\">\(Translation.current("no meals"))</td></tr>\n"
        continue
      }
      html +=
        "<td class=\"t\">\(clock(first))</td><td class=\"t\">\(clock(last))</td><td class=\"n\">"
      html += day.overnightGapMinutes.map(ReportText.minutes) ?? ""
      html += "</td><td class=\"n\">\(day.longestGapMinutes.map(ReportText.minutes) ?? "")</td>"
      html += "<td class=\"n\">"
      if day.flaggedGapCount > 0 { html += "<span class=\"flag\">\(day.flaggedGapCount)</span>" }
      html += "</td></tr>\n"
    }
    html += "</tbody>\n</table>\n"
    let renderer = MealReportText(report: report, style: plain)
    html += "<p>\(Self.escape(renderer.summaryLine()))</p>\n</section>\n"
  }

  /// A meal's time, with its offset tagged when it was logged away from home.
  func clock(_ meal: Meal) -> String {
    guard meal.isAway else { return ReportText.clock(meal.time) }
    return ReportText.clock(meal.time)
      + " <span class=\"away-tag\">\(ReportText.offset(meal.time.offsetMinutes))</span>"
  }

  /// The positions of the days of each week, split where a week begins; made as they are read,
  /// so a diary over the whole calendar does not hold a list of its weeks.
  static func weeks(_ days: MealDays, startingOn weekStart: Int) -> some Sequence<Range<Int>> {
    sequence(state: days.startIndex) { start -> Range<Int>? in
      guard start < days.endIndex else { return nil }
      var end = start + 1
      while end < days.endIndex && days.date(at: end).weekday != weekStart { end += 1 }
      defer { start = end }
      return start..<end
    }
  }
}
