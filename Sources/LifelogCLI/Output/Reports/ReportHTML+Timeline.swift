import LifelogCore

/// The meal timeline: an inline SVG with a row per day on a 24-hour axis.
extension ReportHTML {
  static let labelWidth = 116
  static let axisWidth = 720
  static let rowHeight = 26

  /// x of a minute of the report day (0 ..< 1440) on the timeline.
  static func x(_ minute: Int) -> Int { labelWidth + minute * axisWidth / 1440 }

  /// A row per day on a 24-hour axis from `dayStartsAt`: a mark per meal, flagged gaps as bands.
  ///
  /// `flush` is called after each row, so the compact report's timeline over a whole log (a
  /// mark per meal) can be written in pieces.
  func timeline(
    _ days: Slice<MealDays>, _ report: MealReport, into html: inout ReportBytes,
    flush: (inout ReportBytes) -> Void = { _ in }
  ) {
    let width = Self.labelWidth + Self.axisWidth + 16
    let top = 22
    let height = top + days.count * Self.rowHeight + 8
    html += "<figure class=\"chart\">\n<svg class=\"timeline\" "
    html += "viewBox=\"0 0 \(width) \(height)\" width=\"100%\" role=\"img\" "
    html += "aria-label=\"Meal timeline, a row per day\">\n"
    axis(top: top, bottom: height - 8, into: &html)
    var used = LegendKeys()
    for (row, day) in days.enumerated() {
      flush(&html)
      let y = top + row * Self.rowHeight
      let middle = y + Self.rowHeight / 2
      if row % 2 == 0 {
        html +=
          "<rect class=\"band\" x=\"\(Self.labelWidth)\" y=\"\(y)\" width=\"\(Self.axisWidth)\" "
        html += "height=\"\(Self.rowHeight)\"/>\n"
      }
      html += "<text class=\"day\" x=\"\(Self.labelWidth - 10)\" y=\"\(middle + 4)\">"
      html += "\(ReportText.day(day.date, settings))</text>\n"
      if day.meals.isEmpty {
        html += "<text class=\"nomeals\" x=\"\(Self.x(720))\" y=\"\(middle + 4)\">no meals</text>\n"
        continue
      }
      for gap in day.flaggedGaps { gapBand(gap, day, y: y, into: &html) }
      used.gaps = used.gaps || !day.flaggedGaps.isEmpty
      html += "<line class=\"span\" x1=\"\(Self.x(day.meals[0].minuteOfDay))\" y1=\"\(middle)\" "
      html += "x2=\"\(Self.x(day.meals[day.meals.count - 1].minuteOfDay))\" y2=\"\(middle)\"/>\n"
      for meal in day.meals {
        used.away = used.away || meal.isAway
        html += meal.isAway ? "<circle class=\"meal away\" cx=\"" : "<circle class=\"meal\" cx=\""
        html.number(Self.x(meal.minuteOfDay))
        html += "\" cy=\""
        html.number(middle)
        html += "\" r=\"4.5\"><title>"
        html.clock(meal.time)
        if meal.isAway {
          html += " UTC"
          html.offset(minutes: meal.time.offsetMinutes)
        }
        html += " "
        Self.appendEscaped(report.activityName(of: meal), to: &html)
        html += "</title></circle>\n"
      }
    }
    html += "</svg>\n"
    legend(used, into: &html)
    html += "</figure>\n"
  }

  func gapBand(_ gap: MealGap, _ day: MealDay, y: Int, into html: inout ReportBytes) {
    let from = day.meals[gap.mealIndex - 1].minuteOfDay
    let to = day.meals[gap.mealIndex].minuteOfDay
    let left = Self.x(min(from, to))
    let right = Self.x(max(from, to))
    html += "<rect class=\"gap\" x=\"\(left)\" y=\"\(y + 4)\" width=\"\(max(right - left, 2))\" "
    html += "height=\"\(Self.rowHeight - 8)\" rx=\"3\"><title>gap "
    html += "\(ReportText.minutes(gap.minutes))</title></rect>\n"
  }

  /// Hour ticks from `dayStartsAt`, labelled at the start and every third hour of the clock.
  func axis(top: Int, bottom: Int, into html: inout ReportBytes) {
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

  /// The marks a timeline drew beyond plain meals: its legend explains only those.
  struct LegendKeys {
    var away = false
    var gaps = false
  }

  /// The key to the timeline's marks, only those it uses: a legend entry for a mark the page
  /// never shows only has the reader look for it.
  func legend(_ used: LegendKeys, into html: inout ReportBytes) {
    html += "<figcaption class=\"legend\">"
    html += "<span><svg class=\"key\" viewBox=\"0 0 12 12\" width=\"12\" height=\"12\">"
    html += "<circle class=\"key-meal\" cx=\"6\" cy=\"6\" r=\"4.5\"/></svg> meal</span>"
    if used.away {
      html += "<span><svg class=\"key\" viewBox=\"0 0 12 12\" width=\"12\" height=\"12\">"
      html +=
        "<circle class=\"key-away\" cx=\"6\" cy=\"6\" r=\"4\"/></svg> logged away from home</span>"
    }
    if used.gaps {
      html += "<span><svg class=\"key\" viewBox=\"0 0 22 12\" width=\"22\" height=\"12\">"
      html += "<rect class=\"key-gap\" x=\"1\" y=\"1\" width=\"20\" height=\"10\" rx=\"3\"/></svg> "
      html += "gap over \(ReportText.gapLimit(settings))</span>"
    }
    html +=
      "<span>Each row is one day, \(ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes))"
    html += " to \(ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes)); "
    html += "the overnight gap is not flagged.</span></figcaption>\n"
  }
}
