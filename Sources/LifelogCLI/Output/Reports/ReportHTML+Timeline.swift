import LifelogCore

/// The meal timeline: an inline SVG with a row per day on an axis fitted to the hours meals are
/// logged (``TimelineAxis``).
extension ReportHTML {
  static let labelWidth = 150
  static let axisWidth = 720

  /// The height of a day's row: roomy for a week, compact beyond two, so three weeks print on
  /// the first page under the summary.
  static func rowHeight(days: Int) -> Int { days > 14 ? 18 : 26 }

  /// One timeline for `days`, a row per day: a mark per meal, flagged gaps as bands marked by
  /// direction and grade.
  ///
  /// `flush` is called after each row, so a timeline over a whole log (a mark per meal) can be
  /// written in pieces.
  func timeline(
    _ days: Slice<MealDays>, _ report: MealReport, into html: inout ReportBytes,
    flush: (inout ReportBytes) -> Void = { _ in }
  ) {
    let positions = days.startIndex..<days.endIndex
    let held = zip(days.base.positionsWithMeals, days.base.withMeals).lazy
      .filter { positions.contains($0.0) }.map(\.1)
    let axis = TimelineAxis(
      days: held, dayStartsAt: settings.dayStartsAtMinutes, left: Self.labelWidth,
      width: Self.axisWidth)
    let rowHeight = Self.rowHeight(days: days.count)
    let width = Self.labelWidth + Self.axisWidth + 16
    let top = 22
    let height = top + days.count * rowHeight + 8
    html += "<figure class=\"chart\">\n<svg class=\"timeline\" "
    html += "viewBox=\"0 0 \(width) \(height)\" width=\"100%\" role=\"img\" "
    html += "aria-label=\"\(Self.escape(Translation.current("Meal timeline, a row per day")))\">\n"
    ticks(axis, top: top, bottom: height - 8, into: &html)
    var used = LegendKeys()
    let marks = GapFlagMarkup()
    for (row, day) in days.enumerated() {
      flush(&html)
      let y = top + row * rowHeight
      let middle = y + rowHeight / 2
      if row % 2 == 0 {
        html += "<rect class=\"band\" x=\"\(axis.left)\" y=\"\(y)\" width=\"\(axis.width)\" "
        html += "height=\"\(rowHeight)\"/>\n"
      }
      html += "<text class=\"day\" x=\"\(Self.labelWidth - 10)\" y=\"\(middle + 4)\">"
      html += "\(ReportText.day(day.date, settings))</text>\n"
      if day.meals.isEmpty {
        html +=
          "<text class=\"nomeals\" x=\"\(axis.middle)\" y=\"\(middle + 4)\">\(Translation.current("no meals"))</text>\n"
        continue
      }
      for gap in day.flaggedGaps {
        gapBand(gap, day, axis, marks, y: y, height: rowHeight, into: &html)
        used.flags.insert(gap.flag)
      }
      html += "<line class=\"span\" x1=\"\(axis.x(day.meals[0].minuteOfDay))\" y1=\"\(middle)\" "
      html += "x2=\"\(axis.x(day.meals[day.meals.count - 1].minuteOfDay))\" y2=\"\(middle)\"/>\n"
      for meal in day.meals {
        used.away = used.away || meal.isAway
        html += meal.isAway ? "<circle class=\"meal away\" cx=\"" : "<circle class=\"meal\" cx=\""
        html.number(axis.x(meal.minuteOfDay))
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

  /// A flagged gap as a band from meal to meal, coloured by direction, with its shape (▲ too
  /// long, ▼ too short, doubled when far) written on it so grey-scale print reads it too.
  ///
  /// Written number by number: a diary of snacks has a band for nearly every meal.
  func gapBand(
    _ gap: MealGap, _ day: MealDay, _ axis: TimelineAxis, _ marks: GapFlagMarkup, y: Int,
    height: Int, into html: inout ReportBytes
  ) {
    let from = day.meals[gap.mealIndex - 1].minuteOfDay
    let to = day.meals[gap.mealIndex].minuteOfDay
    let left = axis.x(min(from, to))
    let right = axis.x(max(from, to))
    html += "<rect class=\"gap "
    html += gap.flag.htmlClass
    html += "\" x=\""
    html.number(left)
    html += "\" y=\""
    html.number(y + 3)
    html += "\" width=\""
    html.number(max(right - left, 2))
    html += "\" height=\""
    html.number(height - 6)
    html += "\" rx=\"3\"><title>"
    let title = marks.bandTitle(gap.flag)
    html += title.before
    html.minutes(gap.minutes)
    html += title.after
    html += "</title></rect>\n<text class=\"gapmark\" x=\""
    html.number((left + right) / 2)
    html += "\" y=\""
    html.number(y + height - 5)
    html += "\">"
    html += gap.flag.shape
    html += "</text>\n"
  }

  /// A tick and its clock time at every ``TimelineAxis/step`` from one end to the other.
  func ticks(_ axis: TimelineAxis, top: Int, bottom: Int, into html: inout ReportBytes) {
    for minute in axis.ticks {
      let x = axis.x(minute)
      html +=
        "<line class=\"tick major\" x1=\"\(x)\" y1=\"\(top)\" x2=\"\(x)\" y2=\"\(bottom)\"/>\n"
      html += "<text class=\"hour\" x=\"\(x)\" y=\"\(top - 8)\">"
      html +=
        "\(ReportText.clock(minuteAfterMidnight: settings.clockMinute(ofMinuteOfDay: minute)))"
      html += "</text>\n"
    }
  }

  /// The marks a timeline drew beyond plain meals: its legend explains only those.
  struct LegendKeys {
    var away = false
    var flags: Set<MealGapFlag> = []
  }

  /// The key to the timeline's marks, only those it uses: a legend entry for a mark the page
  /// never shows only has the reader look for it.
  func legend(_ used: LegendKeys, into html: inout ReportBytes) {
    html += "<figcaption class=\"legend\">"
    html += "<span><svg class=\"key\" viewBox=\"0 0 12 12\" width=\"12\" height=\"12\">"
    html += "<circle class=\"key-meal\" cx=\"6\" cy=\"6\" r=\"4.5\"/></svg> "
    html += Translation.current("meal") + "</span>"
    if used.away {
      html += "<span><svg class=\"key\" viewBox=\"0 0 12 12\" width=\"12\" height=\"12\">"
      html +=
        "<circle class=\"key-away\" cx=\"6\" cy=\"6\" r=\"4\"/></svg> "
        + Translation.current("logged away from home") + "</span>"
    }
    for flag in MealGapFlag.allCases where used.flags.contains(flag) {
      html += "<span><svg class=\"key\" viewBox=\"0 0 22 12\" width=\"22\" height=\"12\">"
      html += "<rect class=\"gap \(flag.htmlClass)\" x=\"1\" y=\"1\" width=\"20\" height=\"10\" "
      html += "rx=\"3\"/><text class=\"gapmark\" x=\"11\" y=\"9.5\">\(flag.shape)</text></svg> "
      html += "\(flag.legendText(settings))</span>"
    }
    html += "<span>"
    html += Translation.current.format(
      "Each row is one day (days start at {time}); the overnight gap is not flagged.",
      ["time": ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes)])
    html += "</span></figcaption>\n"
  }
}
