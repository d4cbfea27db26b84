import LifelogCore

/// The small pieces every report renderer writes: clock times, durations, day labels, numbers
/// with a fixed number of decimals (without Foundation), and terminal colour.
enum ReportText {
  /// `07:30`, or `07:30 UTC-05:00` when `marked` (logged away from the reader's zone).
  static func clock(_ time: LoggedTime, marked: Bool = false) -> String {
    let text = time.local.timeDescription
    return marked ? text + " UTC" + LoggedTime.offsetDescription(minutes: time.offsetMinutes) : text
  }

  /// `07:30` for a minute after midnight.
  static func clock(minuteAfterMidnight minute: Int) -> String {
    LocalDateTime(date: CivilDate(daysSinceEpoch: 0), hour: minute / 60, minute: minute % 60)
      .timeDescription
  }

  /// The wall-clock time a minute of the report day shows: `07:30`.
  static func clock(minuteOfDay minute: Int, _ settings: ReportSettings) -> String {
    clock(minuteAfterMidnight: settings.clockMinute(ofMinuteOfDay: minute))
  }

  /// `2h30m`, `45m`, `3h`, `0m`.
  static func minutes(_ minutes: Int) -> String {
    DurationText.format(minutes * 60)
  }

  /// A duration in seconds to the minute: `7h30m`.
  static func seconds(_ seconds: Int) -> String {
    DurationText.format((seconds + 30) / 60 * 60)
  }

  /// `Mon 2026-10-19`.
  static func day(_ date: CivilDate) -> String {
    Translation.current.dayLabel(date)
  }

  /// A day of a meal diary: `Tue 2026-12-01`, or `Tue 2026-12-01 (so far)` while it is not over
  /// (``ReportSettings/today``), so its few meals do not read as a poor day.
  static func day(_ date: CivilDate, _ settings: ReportSettings) -> String {
    guard let suffix = unfinishedSuffix(date, settings) else { return day(date) }
    return day(date) + " " + suffix
  }

  /// `(so far)` for today, `(not yet)` for a day after it, nil for a day that is over: what
  /// every format writes after an unfinished day's label.
  static func unfinishedSuffix(_ date: CivilDate, _ settings: ReportSettings) -> String? {
    guard let today = settings.today, date >= today else { return nil }
    let tr = Translation.current
    return "(" + (date == today ? tr("so far") : tr("not yet")) + ")"
  }

  /// ` (today not counted: not over yet)`, after the summary's day count when the range reaches
  /// an unfinished day.
  static func unfinishedNote(_ summary: MealSummary) -> String {
    let tr = Translation.current
    let note =
      summary.unfinishedDays == 1
      ? tr("today not counted: not over yet")
      : tr.plural(
        "%d day not counted: not over yet", "%d days not counted: not over yet",
        count: summary.unfinishedDays)
    return " (" + note + ")"
  }

  /// Weekday names, Sunday first.
  static let weekdayNames = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ]

  /// `+02:00` as `UTC+02:00`.
  static func offset(_ minutes: Int) -> String {
    "UTC" + LoggedTime.offsetDescription(minutes: minutes)
  }

  /// `mealGapHours` as typed in settings: `3h`, `2h30m`.
  static func gapLimit(_ settings: ReportSettings) -> String {
    DurationText.format(wholeNumber(settings.mealGapHours * 3600))
  }

  /// A non-negative number with at most `decimals` digits after the point, trailing zeros
  /// dropped: `4.6`, `12`, `0.14`.
  static func number(_ value: Double, decimals: Int) -> String {
    var text = fixed(value, decimals)
    if text.contains(".") {
      while text.last == "0" { text.removeLast() }
      if text.last == "." { text.removeLast() }
    }
    return text
  }

  /// A number with exactly `decimals` digits after the point: `4.60`.
  ///
  /// Beyond 10^15 (or not finite) it falls back to Swift's own form (`1e+20`, `inf`) rather than
  /// trapping in `Int64(_:)`; values in range are checked where they enter, so only a ratio over a
  /// tiny target gets there.
  static func fixed(_ value: Double, _ decimals: Int) -> String {
    TextBytes.string { $0.fixed(value, decimals: decimals) }
  }

  /// `value` rounded to a whole number, saturating instead of trapping: 0 for NaN, and at most
  /// ±2^53 (what a `Double` holds exactly), far beyond any duration or amount a report shows.
  static func wholeNumber(_ value: Double) -> Int {
    guard !value.isNaN else { return 0 }
    let limit = 9_007_199_254_740_992.0
    return Int(min(max(value.rounded(), -limit), limit))
  }

  /// A percentage, whole: `90%`.
  static func percent(_ value: Double) -> String {
    fixed(value, 0) + "%"
  }

  /// A number rounded for JSON: at most `decimals` digits after the point.
  static func jsonNumber(_ value: Double, decimals: Int) -> String {
    JSONText.number(Double(number(value, decimals: decimals)) ?? value)
  }

  /// The note on one line (line breaks shown as `⏎`), other control characters escaped
  /// (``TerminalText/visible(_:keepingNewlines:)``).
  static func oneLine(_ note: String?) -> String {
    guard let note else { return "" }
    // Line breaks are bytes 0x0A-0x0D, or start with 0xC2 (U+0085) or 0xE2 (U+2028, U+2029);
    // a native string's bytes are scanned in place.
    let mayBreak = { (byte: UInt8) in (0x0A...0x0D).contains(byte) || byte == 0xC2 || byte == 0xE2 }
    guard
      note.utf8.withContiguousStorageIfAvailable({ $0.contains(where: mayBreak) })
        ?? note.utf8.contains(where: mayBreak),
      note.contains(where: \.isNewline)
    else { return TerminalText.visible(note) }
    return TerminalText.visible(note.split(whereSeparator: \.isNewline).joined(separator: " ⏎ "))
  }

  // MARK: - Appending without building strings

  /// Appends `minutes` as ``minutes(_:)`` writes it.
  static func appendMinutes(_ minutes: Int, to text: inout String) {
    let hours = minutes / 60
    let rest = minutes % 60
    if hours > 0 { text += String(hours) + "h" }
    if rest > 0 { text += String(rest) + "m" }
    if hours == 0 && rest == 0 { text += "0m" }
  }

  /// How many characters ``minutes(_:)`` writes for `minutes`.
  static func minutesWidth(_ minutes: Int) -> Int {
    let hours = minutes / 60
    let rest = minutes % 60
    guard hours > 0 || rest > 0 else { return 2 }
    return (hours > 0 ? String(hours).utf8.count + 1 : 0) + (rest > 0 ? (rest < 10 ? 2 : 3) : 0)
  }

  private static let spaces: [String] = (0...32).map { String(repeating: " ", count: $0) }

  /// Appends `count` spaces (none when `count` is not positive).
  static func appendSpaces(_ count: Int, to text: inout String) {
    guard count > 0 else { return }
    text += count < spaces.count ? spaces[count] : String(repeating: " ", count: count)
  }

  /// Text padded with spaces to `width` characters, on the right (or the left when `right`).
  static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    guard count < width else { return text }
    let padding = String(repeating: " ", count: width - count)
    return right ? padding + text : text + padding
  }

  /// What a target amount reads as in its measure: `2h30m`, `21 times`, `10 km`.
  static func targetAmount(_ amount: Double, of target: Target) -> String {
    switch target.measure {
    case .minutes: return minutes(wholeNumber(amount))
    case .count:
      let tr = Translation.current
      return tr.format(
        amount == 1 ? "{count} time" : "{count} times",
        ["count": tr.decimal(number(amount, decimals: 1))])
    case .quantity(let unit):
      return Translation.current.decimal(number(amount, decimals: 1)) + " " + unit
    }
  }

  /// A target as the report's language writes it: its canonical text in English (`150 min/week`,
  /// `5 times/week`, `10 km/week`, as `activity list` shows it), `150 min/tydzień`,
  /// `5 razy/tydzień`, `2,5 km/tydzień` in Polish; the unit is the person's own, never translated.
  static func target(_ target: Target) -> String {
    let tr = Translation.current
    let amount = tr.decimal(target.amountText)
    let period = tr(target.period.rawValue, context: "target period")
    switch target.measure {
    case .minutes:
      return tr.format(
        "{amount} min/{period}", ["amount": amount, "period": period], context: "target")
    case .count:
      // One time reads differently in some languages ("1 raz", "5 razy"); English keeps its
      // canonical text.
      return tr.format(
        "{amount} times/{period}", ["amount": amount, "period": period],
        context: target.amount == 1 ? "target, one" : "target")
    case .quantity(let unit):
      return tr.format(
        "{amount} {unit}/{period}", ["amount": amount, "unit": unit, "period": period],
        context: "target")
    }
  }

  /// The period of an activity report: `Mon 2026-10-19`, `2026-10-19 to 2026-10-25`, `2026-10`;
  /// with ` (2 of 7 days)` when the range cuts it short.
  ///
  /// A week's days are written as the language writes a date: `23 lis 2026 – 29 lis 2026` in
  /// Polish.
  static func period(_ period: ReportPeriod, by grouping: Target.Period) -> String {
    let tr = Translation.current
    var text: String
    switch grouping {
    case .day: text = day(period.start)
    case .week:
      text = tr.format(
        "{first} to {last}",
        ["first": tr.dateLabel(period.start), "last": tr.dateLabel(period.end)],
        context: "dates")
    case .month: text = String(period.start.description.prefix(7))
    }
    if period.isPartial {
      text +=
        " ("
        + tr.format(
          "{count} of {days}",
          [
            "count": "\(period.dayCount)",
            "days": tr.plural("%d day", "%d days", count: period.fullDayCount),
          ]) + ")"
    }
    return text
  }

  /// `Mon 2026-10-19 to Tue 2026-10-27 (9 days)`.
  static func range(_ range: ReportRange) -> String {
    let tr = Translation.current
    return tr.format(
      "{from} to {to} ({days})",
      [
        "from": day(range.from), "to": day(range.to),
        "days": tr.plural("%d day", "%d days", count: range.dayCount),
      ])
  }

  /// `UTC+02:00 (30 entries), UTC-05:00 (8 entries, away, 2026-10-22 to 2026-10-23)`, or nil
  /// when every entry was logged at one offset at home; the days as the language writes a date
  /// (`3 gru 2026` in Polish).
  static func offsets(_ offsets: [LoggedOffset]) -> String? {
    guard offsets.count > 1 || offsets.contains(where: { $0.awayEntries > 0 }) else { return nil }
    let tr = Translation.current
    return offsets.map { offset in
      var text =
        "\(ReportText.offset(offset.offsetMinutes)) ("
        + tr.plural("%d entry", "%d entries", count: offset.entries)
      if offset.awayEntries > 0 {
        text += ", " + tr("away") + " "
        text +=
          offset.firstDay == offset.lastDay
          ? tr.dateLabel(offset.firstDay)
          : tr.format(
            "{first} to {last}",
            ["first": tr.dateLabel(offset.firstDay), "last": tr.dateLabel(offset.lastDay)],
            context: "dates")
      }
      return text + ")"
    }.joined(separator: ", ")
  }
}

/// Terminal colour, or nothing when colour is off.
struct ReportStyle {
  let colour: Bool

  func bold(_ text: String) -> String { wrap(text, "1") }
  func flagged(_ text: String) -> String { wrap(text, "1;31") }
  /// What ``flagged(_:)`` writes before and after a text that is not empty, for text written
  /// byte by byte.
  var flaggedStart: String { colour ? "\u{1B}[1;31m" : "" }
  var flaggedEnd: String { colour ? "\u{1B}[0m" : "" }
  func dim(_ text: String) -> String { wrap(text, "2") }
  func warning(_ text: String) -> String { wrap(text, "33") }

  private func wrap(_ text: String, _ code: String) -> String {
    colour && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
