import LifelogCore

/// Reports as one self-contained HTML file, to print or hand to a doctor: inline CSS, inline SVG
/// charts drawn here, no JavaScript and nothing loaded from anywhere.
///
/// The markup is XHTML-compatible (void elements closed with `/>`, every other tag closed), so a
/// simple tag-balance check can read it. Printed on A4, each week of the meal diary after the
/// first starts a page (the first follows the summary).
struct ReportHTML {
  let content: ReportContent

  private var settings: ReportSettings { content.settings }
  private let plain = ReportStyle(colour: false)

  func render() -> String {
    var text = ""
    render { text += $0 }
    return text
  }

  /// The same, handed to `write` a piece (about 64 KiB) at a time, so a long diary is never
  /// held whole.
  func render(_ write: (String) -> Void) {
    var html = ReportBytes()
    html.reserve(1 << 17)
    let title: String
    switch content.kind {
    case .meals: title = "Meals"
    case .activity: title = "Activities"
    case .both: title = "Report"
    }
    head(title, into: &html)
    if let meals = content.meals {
      switch content.kind {
      case .meals:
        mealDiary(meals, into: &html) { html in
          guard html.count >= 1 << 16 else { return }
          write(html.string)
          html.removeAll()
        }
      case .both: mealsCompact(meals, into: &html)
      case .activity: break
      }
    }
    if let activity = content.activity {
      activitySection(activity, compact: content.kind == .both, into: &html)
    }
    html +=
      "<footer>Made by lifelog. Times are on the clock where each entry was logged.</footer>\n"
    html += "</main>\n</body>\n</html>\n"
    write(html.string)
  }

  // MARK: - Head

  private func head(_ title: String, into html: inout ReportBytes) {
    let range = ReportText.range(content.range)
    let name = settings.name.isEmpty ? "" : " — " + Self.escape(settings.name)
    html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
    html += "<title>\(title), \(Self.escape(range))\(name)</title>\n"
    html += "<style>\n\(Self.css)</style>\n</head>\n<body>\n<main>\n<header>\n"
    html += "<h1>\(title) <span class=\"range\">\(Self.escape(range))</span></h1>\n"
    if !settings.name.isEmpty {
      html += "<p class=\"person\">\(Self.escape(settings.name))</p>\n"
    }
    html += "<p class=\"lead\">Days start at "
    html += ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes)
    if content.kind != .activity {
      html += "; gaps between meals over \(ReportText.gapLimit(settings)) are flagged"
    }
    html += ". Times are shown on the clock where each entry was logged.</p>\n"
    offsets(into: &html)
    html += "</header>\n"
  }

  /// The UTC offsets the entries were logged at, when there is more than one or any was away.
  private func offsets(into html: inout ReportBytes) {
    let list = content.offsets
    guard list.count > 1 || list.contains(where: { $0.awayEntries > 0 }) else { return }
    html += "<div class=\"offsets\"><strong>Time zones.</strong> Entries were logged at "
    html += list.map { offset in
      var text = "<b>\(ReportText.offset(offset.offsetMinutes))</b> (\(offset.entries) "
      text += offset.entries == 1 ? "entry" : "entries"
      if offset.awayEntries > 0 {
        text += ", away from home, "
        text +=
          offset.firstDay == offset.lastDay
          ? ReportText.day(offset.firstDay)
          : "\(ReportText.day(offset.firstDay)) to \(ReportText.day(offset.lastDay))"
      }
      return text + ")"
    }.joined(separator: ", ")
    html += ". Times logged away from home are marked "
    html += "<span class=\"away-tag\">UTC±hh:mm</span> in tables and drawn as open circles.</div>\n"
  }

  // MARK: - Meals

  /// The summary, then a section per week: its timeline and a table per day.
  ///
  /// `flush` is called after each day.
  private func mealDiary(
    _ report: MealReport, into html: inout ReportBytes, flush: (inout ReportBytes) -> Void
  ) {
    html += "<section class=\"summary\">\n<h2>Summary</h2>\n"
    summaryTable(report, into: &html)
    html += "</section>\n"
    for week in Self.weeks(report.days, startingOn: settings.weekStartsOn) {
      guard let first = week.first, let last = week.last else { continue }
      html += "<section class=\"week\">\n<h2>Week of \(ReportText.day(first.date))"
      if first.date != last.date {
        html += " <span class=\"range\">to \(ReportText.day(last.date))</span>"
      }
      html += "</h2>\n"
      timeline(week, report, into: &html)
      for day in week {
        dayTable(day, report, into: &html)
        flush(&html)
      }
      html += "</section>\n"
    }
  }

  private func summaryTable(_ report: MealReport, into html: inout ReportBytes) {
    html += "<table class=\"facts\">\n<tbody>\n"
    for (label, value) in MealReportText(report: report, style: plain).summaryRows()
    where label != "Offsets" {
      html +=
        "<tr><th scope=\"row\">\(Self.escape(label))</th><td>\(Self.escape(value))</td></tr>\n"
    }
    html += "</tbody>\n</table>\n"
  }

  private func dayTable(_ day: MealDay, _ report: MealReport, into html: inout ReportBytes) {
    html += "<div class=\"day\">\n<h3>\(ReportText.day(day.date))</h3>\n"
    guard let first = day.firstMeal, let last = day.lastMeal else {
      html += "<p class=\"none\">No meals logged.</p>\n</div>\n"
      return
    }
    html += "<p class=\"daynote\">\(day.meals.count) meal\(day.meals.count == 1 ? "" : "s"), "
    html += "\(ReportText.clock(first.time)) to \(ReportText.clock(last.time))"
    if let longest = day.longestGapMinutes {
      html += ", longest gap \(ReportText.minutes(longest))"
    }
    if !day.flaggedGaps.isEmpty {
      html +=
        ", <span class=\"flag\">\(day.flaggedGaps.count) over \(ReportText.gapLimit(settings))</span>"
    }
    if let overnight = day.overnightGapMinutes {
      html += "; overnight gap \(ReportText.minutes(overnight))"
    }
    html +=
      ".</p>\n<table class=\"meals\">\n<colgroup><col class=\"c-time\"/><col class=\"c-meal\"/>"
    html += "<col class=\"c-gap\"/><col/></colgroup>\n<thead><tr><th>Time</th><th>Meal</th>"
    html += "<th class=\"n\">Gap</th><th class=\"note\">Note</th></tr></thead>\n<tbody>\n"
    // Written byte by byte: the diary can hold 100,000 meals.
    for meal in day.meals {
      html += meal.isFlagged ? "<tr class=\"flagged\"><td class=\"t\">" : "<tr><td class=\"t\">"
      html.clock(meal.time)
      if meal.isAway {
        html += " <span class=\"away-tag\">UTC"
        html.offset(meal.time.offsetMinutes)
        html += "</span>"
      }
      html += "</td><td>"
      Self.appendEscaped(report.entries[meal.entryIndex].activityName, to: &html)
      html += "</td><td class=\"n\">"
      if let gap = meal.gapMinutes { html.minutes(gap) }
      if meal.isFlagged { html += " <span class=\"flag\">!</span>" }
      html += "</td><td class=\"note\">"
      if let note = report.entries[meal.entryIndex].note {
        Self.appendEscaped(ReportText.oneLine(note), to: &html)
      }
      html += "</td></tr>\n"
    }
    html += "</tbody>\n</table>\n</div>\n"
  }

  private func mealsCompact(_ report: MealReport, into html: inout ReportBytes) {
    html += "<section class=\"meals-compact\">\n<h2>Meals</h2>\n"
    timeline(report.days[...], report, into: &html)
    html += "<table>\n<thead><tr><th>Day</th><th class=\"n\">Meals</th><th>First</th><th>Last</th>"
    html += "<th class=\"n\">Overnight</th><th class=\"n\">Longest gap</th>"
    html +=
      "<th class=\"n\">Gaps over \(ReportText.gapLimit(settings))</th></tr></thead>\n<tbody>\n"
    for day in report.days {
      html += day.flaggedGaps.isEmpty ? "<tr>" : "<tr class=\"flagged\">"
      html += "<td>\(ReportText.day(day.date))</td><td class=\"n\">\(day.meals.count)</td>"
      guard let first = day.firstMeal, let last = day.lastMeal else {
        html += "<td class=\"none\" colspan=\"5\">no meals</td></tr>\n"
        continue
      }
      html +=
        "<td class=\"t\">\(clock(first))</td><td class=\"t\">\(clock(last))</td><td class=\"n\">"
      html += day.overnightGapMinutes.map(ReportText.minutes) ?? ""
      html += "</td><td class=\"n\">\(day.longestGapMinutes.map(ReportText.minutes) ?? "")</td>"
      html += "<td class=\"n\">"
      if !day.flaggedGaps.isEmpty { html += "<span class=\"flag\">\(day.flaggedGaps.count)</span>" }
      html += "</td></tr>\n"
    }
    html += "</tbody>\n</table>\n"
    let renderer = MealReportText(report: report, style: plain)
    html += "<p>\(Self.escape(renderer.summaryLine()))</p>\n</section>\n"
  }

  /// A meal's time, with its offset tagged when it was logged away from home.
  private func clock(_ meal: Meal) -> String {
    guard meal.isAway else { return ReportText.clock(meal.time) }
    return ReportText.clock(meal.time)
      + " <span class=\"away-tag\">\(ReportText.offset(meal.time.offsetMinutes))</span>"
  }

  /// The days split where a week begins.
  static func weeks(_ days: [MealDay], startingOn weekStart: Int) -> [ArraySlice<MealDay>] {
    var weeks: [ArraySlice<MealDay>] = []
    var start = days.startIndex
    for index in days.indices where index > start && days[index].date.weekday == weekStart {
      weeks.append(days[start..<index])
      start = index
    }
    if start < days.endIndex { weeks.append(days[start...]) }
    return weeks
  }

  // MARK: - Timeline chart

  private static let labelWidth = 116
  private static let axisWidth = 720
  private static let rowHeight = 26

  /// x of a minute of the report day (0 ..< 1440) on the timeline.
  private static func x(_ minute: Int) -> Int { labelWidth + minute * axisWidth / 1440 }

  /// A row per day on a 24-hour axis from `dayStartsAt`: a mark per meal, flagged gaps as bands.
  private func timeline(
    _ days: ArraySlice<MealDay>, _ report: MealReport, into html: inout ReportBytes
  ) {
    let width = Self.labelWidth + Self.axisWidth + 16
    let top = 22
    let height = top + days.count * Self.rowHeight + 8
    html += "<figure class=\"chart\">\n<svg class=\"timeline\" "
    html += "viewBox=\"0 0 \(width) \(height)\" width=\"100%\" role=\"img\" "
    html += "aria-label=\"Meal timeline, a row per day\">\n"
    axis(top: top, bottom: height - 8, into: &html)
    for (row, day) in days.enumerated() {
      let y = top + row * Self.rowHeight
      let middle = y + Self.rowHeight / 2
      if row % 2 == 0 {
        html +=
          "<rect class=\"band\" x=\"\(Self.labelWidth)\" y=\"\(y)\" width=\"\(Self.axisWidth)\" "
        html += "height=\"\(Self.rowHeight)\"/>\n"
      }
      html += "<text class=\"day\" x=\"\(Self.labelWidth - 10)\" y=\"\(middle + 4)\">"
      html += "\(ReportText.day(day.date))</text>\n"
      if day.meals.isEmpty {
        html += "<text class=\"nomeals\" x=\"\(Self.x(720))\" y=\"\(middle + 4)\">no meals</text>\n"
        continue
      }
      for gap in day.flaggedGaps { gapBand(gap, day, y: y, into: &html) }
      html += "<line class=\"span\" x1=\"\(Self.x(day.meals[0].minuteOfDay))\" y1=\"\(middle)\" "
      html += "x2=\"\(Self.x(day.meals[day.meals.count - 1].minuteOfDay))\" y2=\"\(middle)\"/>\n"
      for meal in day.meals {
        html += meal.isAway ? "<circle class=\"meal away\" cx=\"" : "<circle class=\"meal\" cx=\""
        html.number(Self.x(meal.minuteOfDay))
        html += "\" cy=\""
        html.number(middle)
        html += "\" r=\"4.5\"><title>"
        html.clock(meal.time)
        if meal.isAway {
          html += " UTC"
          html.offset(meal.time.offsetMinutes)
        }
        html += " "
        Self.appendEscaped(report.entries[meal.entryIndex].activityName, to: &html)
        html += "</title></circle>\n"
      }
    }
    html += "</svg>\n"
    legend(into: &html)
    html += "</figure>\n"
  }

  private func gapBand(_ gap: MealGap, _ day: MealDay, y: Int, into html: inout ReportBytes) {
    let from = day.meals[gap.mealIndex - 1].minuteOfDay
    let to = day.meals[gap.mealIndex].minuteOfDay
    let left = Self.x(min(from, to))
    let right = Self.x(max(from, to))
    html += "<rect class=\"gap\" x=\"\(left)\" y=\"\(y + 4)\" width=\"\(max(right - left, 2))\" "
    html += "height=\"\(Self.rowHeight - 8)\" rx=\"3\"><title>gap "
    html += "\(ReportText.minutes(gap.minutes))</title></rect>\n"
  }

  /// Hour ticks from `dayStartsAt`, labelled at the start and every third hour of the clock.
  private func axis(top: Int, bottom: Int, into html: inout ReportBytes) {
    let start = settings.dayStartsAtMinutes
    // The day's start (04:30, say), then every full hour after it.
    let firstHour = (60 - start % 60) % 60
    let minutes =
      (firstHour == 0 ? [] : [0]) + Array(stride(from: firstHour, through: 1440, by: 60))
    for minute in minutes {
      let x = Self.x(minute)
      let clock = (start + minute) % 1440
      let major = minute == 0 || (clock / 60) % 3 == 0 && clock % 60 == 0
      html += "<line class=\"\(major ? "tick major" : "tick")\" x1=\"\(x)\" y1=\"\(top)\" "
      html += "x2=\"\(x)\" y2=\"\(bottom)\"/>\n"
      // The day's start is labelled, then every third hour not crowding it.
      if major && minute < 1440 && (minute == 0 || minute >= 90) {
        html += "<text class=\"hour\" x=\"\(x)\" y=\"\(top - 8)\">"
        html += "\(ReportText.clock(minuteAfterMidnight: clock))</text>\n"
      }
    }
  }

  private func legend(into html: inout ReportBytes) {
    html += "<figcaption class=\"legend\">"
    html += "<span><svg class=\"key\" viewBox=\"0 0 12 12\" width=\"12\" height=\"12\">"
    html += "<circle class=\"key-meal\" cx=\"6\" cy=\"6\" r=\"4.5\"/></svg> meal</span>"
    html += "<span><svg class=\"key\" viewBox=\"0 0 12 12\" width=\"12\" height=\"12\">"
    html +=
      "<circle class=\"key-away\" cx=\"6\" cy=\"6\" r=\"4\"/></svg> logged away from home</span>"
    html += "<span><svg class=\"key\" viewBox=\"0 0 22 12\" width=\"22\" height=\"12\">"
    html += "<rect class=\"key-gap\" x=\"1\" y=\"1\" width=\"20\" height=\"10\" rx=\"3\"/></svg> "
    html += "gap over \(ReportText.gapLimit(settings))</span>"
    html +=
      "<span>Each row is one day, \(ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes))"
    html += " to \(ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes)); "
    html += "the overnight gap is not flagged.</span></figcaption>\n"
  }

  // MARK: - Activities

  private func activitySection(
    _ report: ActivityReport, compact: Bool, into html: inout ReportBytes
  ) {
    let renderer = ActivityReportText(report: report, style: plain)
    html +=
      "<section class=\"activities\">\n<h2>\(compact ? "Activities" : "Totals against targets")</h2>\n"
    if report.activities.isEmpty {
      html += "<p class=\"none\">No activities logged in this range.</p>\n"
    } else {
      totalsChart(report, into: &html)
      if compact {
        table(renderer.totalRows(), numeric: [1, 2, 3, 4, 5], into: &html)
      } else {
        let heading = renderer.heading().split(separator: "\n")
        if heading.count > 1 {
          html += "<p class=\"lead\">\(Self.escape(String(heading[1])))</p>\n"
        }
        table(renderer.periodRows(), numeric: [2, 3, 4, 5, 6], into: &html)
      }
      let targets = renderer.targets()
      if !targets.isEmpty { html += "<p class=\"small\">\(Self.escape(targets))</p>\n" }
    }
    html += "<h3>Sleep</h3>\n"
    if !renderer.hasSleep {
      html += "<p class=\"none\">None logged.</p>\n"
    } else if compact {
      var line = renderer.sleepLine()
      if line.hasPrefix("Sleep: ") { line = String(line.dropFirst(7)) }
      html += "<p>\(Self.escape(line.prefix(1).uppercased() + line.dropFirst()))</p>\n"
    } else {
      html += "<p class=\"small\">A night belongs to the day it begins in.</p>\n"
      table(renderer.sleepRows(), numeric: [], into: &html)
      html += "<p>\(Self.escape(renderer.averageLine(report.sleep)))</p>\n"
    }
    html += "</section>\n"
  }

  /// A horizontal bar per activity with a target: what was reached over the range, the target
  /// marked at 100%.
  private func totalsChart(_ report: ActivityReport, into html: inout ReportBytes) {
    let targeted = report.activities.filter { $0.total.percentReached != nil }
    let width = 852
    let barLeft = 150
    let barWidth = 520
    let rowHeight = 34
    let height = 16 + max(targeted.count, 1) * rowHeight + 18
    let largest = targeted.compactMap(\.total.percentReached).max() ?? 100
    let scale = min(max(largest, 100) * 1.05, 200)
    let scaled = { (percent: Double) -> Int in
      barLeft
        + ReportText.wholeNumber((min(percent, scale) / scale * Double(barWidth)).rounded(.down))
    }
    html += "<figure class=\"chart\">\n<svg class=\"totals\" "
    html += "viewBox=\"0 0 \(width) \(height)\" width=\"100%\" role=\"img\" "
    html += "aria-label=\"Activity totals against targets\">\n"
    if targeted.isEmpty {
      html += "<text class=\"nomeals\" x=\"\(barLeft)\" y=\"36\">No activity has a target.</text>\n"
    }
    for (row, totals) in targeted.enumerated() {
      guard let percent = totals.total.percentReached, let target = totals.total.targetAmount,
        let goal = totals.activity.target
      else { continue }
      let y = 16 + row * rowHeight
      let reached = percent >= 100
      html += "<text class=\"day\" x=\"\(barLeft - 12)\" y=\"\(y + 17)\">"
      html += "\(Self.escape(totals.activity.name))</text>\n"
      html +=
        "<rect class=\"track\" x=\"\(barLeft)\" y=\"\(y + 4)\" width=\"\(barWidth)\" height=\"18\" rx=\"3\"/>\n"
      html += "<rect class=\"\(reached ? "bar met" : "bar")\" x=\"\(barLeft)\" y=\"\(y + 4)\" "
      html += "width=\"\(max(scaled(percent) - barLeft, 1))\" height=\"18\" rx=\"3\"/>\n"
      let mark = scaled(100)
      html +=
        "<line class=\"target\" x1=\"\(mark)\" y1=\"\(y)\" x2=\"\(mark)\" y2=\"\(y + 26)\"/>\n"
      html += "<text class=\"value\" x=\"\(barLeft + barWidth + 10)\" y=\"\(y + 17)\">"
      html +=
        "\(ReportText.percent(percent)) of \(Self.escape(ReportText.targetAmount(target, of: goal)))"
      html += "</text>\n"
    }
    if !targeted.isEmpty {
      let mark = scaled(100)
      html += "<text class=\"hour\" x=\"\(mark)\" y=\"\(height - 4)\">target</text>\n"
    }
    html += "</svg>\n<figcaption class=\"legend\"><span><svg class=\"key\" viewBox=\"0 0 22 12\" "
    html +=
      "width=\"22\" height=\"12\"><rect class=\"key-bar\" x=\"1\" y=\"1\" width=\"20\" height=\"10\" "
    html +=
      "rx=\"2\"/></svg> reached</span><span><svg class=\"key\" viewBox=\"0 0 22 12\" width=\"22\" "
    html +=
      "height=\"12\"><rect class=\"key-met\" x=\"1\" y=\"1\" width=\"20\" height=\"10\" rx=\"2\"/>"
    html += "</svg> target met</span><span><svg class=\"key\" viewBox=\"0 0 6 14\" width=\"6\" "
    html += "height=\"14\"><line class=\"key-target\" x1=\"3\" y1=\"0\" x2=\"3\" y2=\"14\"/></svg> "
    html += "target over the range</span></figcaption>\n</figure>\n"
  }

  // MARK: - Tables

  /// A table; the first row is the header (title-cased).
  private func table(
    _ rows: [[String]], numeric: Set<Int>, highlighted: Set<Int> = [], into html: inout ReportBytes
  ) {
    guard let header = rows.first else { return }
    html += "<table>\n<thead><tr>"
    for (column, title) in header.enumerated() {
      html += numeric.contains(column) ? "<th class=\"n\">" : "<th>"
      html += "\(Self.escape(Self.title(title)))</th>"
    }
    html += "</tr></thead>\n<tbody>\n"
    for (index, row) in rows.enumerated().dropFirst() {
      html += highlighted.contains(index) ? "<tr class=\"flagged\">" : "<tr>"
      for (column, cell) in row.enumerated() {
        html += numeric.contains(column) ? "<td class=\"n\">" : "<td>"
        html += "\(Self.escape(cell))</td>"
      }
      html += "</tr>\n"
    }
    html += "</tbody>\n</table>\n"
  }

  /// `LONGEST GAP` as `Longest gap`.
  private static func title(_ text: String) -> String {
    guard let first = text.first else { return text }
    return first.uppercased() + text.dropFirst().lowercased()
  }

  /// Appends `text` escaped as ``escape(_:)`` does.
  static func appendEscaped(_ text: String, to html: inout ReportBytes) {
    let text = TerminalText.visible(text, keepingNewlines: true)
    guard text.utf8.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 34 || $0 == 39 })
    else { return html.append(text) }
    html.append(escape(text))
  }

  /// Text with `&`, `<`, `>`, `"` and `'` written as character references, and control
  /// characters (not allowed in HTML; they may have come by sync) as visible escapes.
  static func escape(_ text: String) -> String {
    let text = TerminalText.visible(text, keepingNewlines: true)
    guard text.utf8.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 34 || $0 == 39 })
    else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for character in text.unicodeScalars {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }

  // MARK: - Style

  static let css = """
    @page { size: A4; margin: 14mm 14mm 16mm; }
    :root { --ink: #24292f; --muted: #6a737d; --rule: #d8dee4; --band: #f5f7f9;
      --meal: #3d6a8a; --gap: #d9a25f; --met: #5f8f6e; --bar: #8fa9bf; }
    * { box-sizing: border-box; }
    body { margin: 0; background: #fff; color: var(--ink);
      font: 14px/1.5 "Helvetica Neue", Helvetica, Arial, "Liberation Sans", "DejaVu Sans", sans-serif; }
    main { max-width: 900px; margin: 0 auto; padding: 32px 28px 40px; }
    header { border-bottom: 1px solid var(--rule); padding-bottom: 12px; margin-bottom: 8px; }
    h1 { font-size: 24px; font-weight: 600; margin: 0 0 4px; }
    h1 .range, h2 .range { font-weight: 400; color: var(--muted); }
    h2 { font-size: 18px; font-weight: 600; margin: 28px 0 10px; }
    h3 { font-size: 15px; font-weight: 600; margin: 18px 0 4px; }
    .person { font-size: 16px; margin: 0 0 6px; }
    .lead, .small, .daynote, footer { color: var(--muted); }
    .lead { margin: 4px 0; }
    .small { font-size: 12.5px; }
    .daynote { margin: 0 0 6px; font-size: 13px; }
    .none { color: var(--muted); font-style: italic; margin: 2px 0 8px; }
    .offsets { background: var(--band); border-left: 3px solid var(--bar); padding: 8px 12px;
      margin: 10px 0 4px; font-size: 13px; }
    .away-tag { font-size: 11px; color: var(--meal); border: 1px solid var(--bar);
      border-radius: 3px; padding: 0 3px; white-space: nowrap; }
    .flag { color: #a0622a; font-weight: 600; }
    table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; font-size: 13px; }
    th, td { text-align: left; padding: 4px 10px 4px 0; border-bottom: 1px solid var(--rule);
      vertical-align: top; }
    thead th { font-weight: 600; color: var(--muted); font-size: 12px;
      border-bottom: 1px solid #b9c2cb; }
    .n { text-align: right; font-variant-numeric: tabular-nums; }
    .t { white-space: nowrap; font-variant-numeric: tabular-nums; }
    table.meals { table-layout: fixed; }
    .c-time { width: 10em; } .c-meal { width: 9em; } .c-gap { width: 6.5em; }
    .note { color: #4a535c; padding-left: 18px; }
    tr.flagged td { background: #fbf3e8; }
    table.facts { width: auto; min-width: 60%; }
    table.facts th { font-weight: 400; color: var(--muted); padding-right: 24px; }
    .chart { margin: 8px 0 14px; }
    .chart svg { display: block; font-size: 11px; }
    .band { fill: var(--band); }
    .tick { stroke: #e6eaee; stroke-width: 1; }
    .tick.major { stroke: #cfd6dd; }
    .hour { fill: var(--muted); text-anchor: middle; font-size: 10.5px; }
    .day { fill: var(--ink); text-anchor: end; font-size: 11.5px; }
    .value { fill: var(--ink); font-size: 11.5px; }
    .nomeals { fill: var(--muted); font-style: italic; text-anchor: middle; font-size: 11px;
      paint-order: stroke; stroke: #fff; stroke-width: 5px; stroke-linejoin: round; }
    .span { stroke: #b7c6d3; stroke-width: 1.5; }
    .meal, .key-meal { fill: var(--meal); stroke: #fff; stroke-width: 1; }
    .meal.away, .key-away { fill: #fff; stroke: var(--meal); stroke-width: 1.8; }
    .gap, .key-gap { fill: var(--gap); fill-opacity: 0.28; stroke: var(--gap); stroke-width: 1; }
    .track { fill: var(--band); }
    .bar, .key-bar { fill: var(--bar); }
    .bar.met, .key-met { fill: var(--met); }
    .target, .key-target { stroke: var(--ink); stroke-width: 2; }
    .legend { display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 12px; color: var(--muted);
      margin-top: 4px; }
    .legend span { display: inline-flex; align-items: center; gap: 5px; }
    .legend svg.key { display: inline; }
    .day h3 { margin-top: 16px; }
    footer { margin-top: 32px; padding-top: 8px; border-top: 1px solid var(--rule); font-size: 12px; }
    @media print {
      body { font-size: 10pt; }
      main { max-width: none; padding: 0; }
      h2 { margin-top: 16px; }
      th, td { padding-top: 2px; padding-bottom: 2px; }
      .week + .week { break-before: page; page-break-before: always; }
      .chart, tr, .day { break-inside: avoid; page-break-inside: avoid; }
      h2, h3 { break-after: avoid; page-break-after: avoid; }
    }

    """
}

extension ReportBytes {
  fileprivate static func += (bytes: inout ReportBytes, text: String) { bytes.append(text) }
}
