/// Reads the times people type (`now`, `08:15`, `8am`, `yesterday 19:30`, `mon 12:00`, `-2h`,
/// `2026-12-01 08:15`, ISO 8601) into an exact instant and the offset in force there.
///
/// Exactness is the rule: a time that cannot be read exactly is refused with a message that says
/// how to write it, never stored as something else. A wall-clock time skipped by a DST change is
/// refused; one that happened twice is refused unless an offset says which.
public struct TimeParser: Sendable {
  /// The current instant (Unix seconds); relative times count from it.
  public let now: Int64
  /// The zone wall-clock times are read in.
  public let zone: any TimeZoneRules
  /// The zone's name for messages (`Europe/Warsaw`).
  public let zoneName: String

  public init(now: Int64, zone: any TimeZoneRules, zoneName: String = "the local time zone") {
    self.now = now
    self.zone = zone
    self.zoneName = zoneName
  }

  /// Today's date on the local wall clock.
  public var today: CivilDate {
    LocalDateTime(instant: now, offsetSeconds: zone.offsetSeconds(at: now)).date
  }

  /// Parses a time that must name an instant (`--at`).
  public func parseTime(_ text: String) throws(InputError) -> LoggedTime {
    // Machine-written times (every row of an export) skip the general grammar.
    if let exact = ISO8601Text.parseExact(text) { return exact }
    return try parse(text, bareDayMeansMidnight: false)
  }

  /// Parses a new time for something already logged on `day` (`edit --at`): a bare time of day
  /// (`13:15`, `1pm`) stays on that day, so fixing yesterday's lunch the next morning keeps it
  /// yesterday; anything naming a day or an instant reads as ``parseTime(_:)`` does.
  public func parseTime(_ text: String, bareTimeOn day: CivilDate) throws(InputError) -> LoggedTime
  {
    if let exact = ISO8601Text.parseExact(text) { return exact }
    return try parse(text, bareDayMeansMidnight: false, bareTimeDay: day)
  }

  /// Parses a range boundary (`--from`, `--to`): like ``parseTime(_:)``, but a bare day
  /// (`2026-12-01`, `yesterday`, `mon`) means that day's midnight.
  public func parseBoundary(_ text: String) throws(InputError) -> LoggedTime {
    try parse(text, bareDayMeansMidnight: true)
  }

  /// Parses a day: `today`, `yesterday`, a weekday name, or `YYYY-MM-DD`.
  public func parseDay(_ text: String) throws(InputError) -> CivilDate {
    let word = text.lowercased().trimmingSpaces()
    if let day = try day(from: word) { return day }
    throw InputError(
      "Cannot read day '\(text)'; use 'today', 'yesterday', a weekday such as 'mon', or YYYY-MM-DD")
  }

  // MARK: - Grammar

  private func parse(
    _ text: String, bareDayMeansMidnight: Bool, bareTimeDay: CivilDate? = nil
  ) throws(InputError) -> LoggedTime {
    let input = text.lowercased().trimmingSpaces()
    if input.isEmpty { throw unreadable(text) }
    if input == "now" { return zone.loggedTime(at: now) }
    if input.hasPrefix("-") || input.hasSuffix(" ago") {
      return try relative(input, original: text)
    }
    if let explicit = try ISO8601Text.parseWithOffset(input, original: text) {
      return explicit
    }
    var words = input.split(separator: " ").map(String.init)
    if words.count >= 2, ["am", "pm"].contains(words[words.count - 1]) {
      words[words.count - 2] += words.removeLast()
    }
    if words.count == 1, words[0].count > 10, ISO8601Text.separatorIndex(in: words[0]) != nil {
      let word = words[0]
      words = [String(word.prefix(10)), String(word.dropFirst(11))]
    }
    switch words.count {
    case 1:
      if let day = try day(from: words[0]) {
        guard bareDayMeansMidnight else {
          throw InputError(
            "'\(text)' names a day, not a time; add a time, e.g. '\(words[0]) 08:15' or '\(words[0]) 8am'"
          )
        }
        return midnight(of: day)
      }
      guard let clock = try ClockText.parse(words[0], original: text) else {
        throw unreadable(text)
      }
      return try resolve(date: bareTimeDay ?? today, clock: clock, original: text)
    case 2:
      guard let day = try day(from: words[0]) else { throw unreadable(text) }
      guard let clock = try ClockText.parse(words[1], original: text) else {
        throw InputError(
          "Cannot read the time of day in '\(text)'; write it as '19:30', '7:30pm' or '8am'")
      }
      return try resolve(date: day, clock: clock, original: text)
    default:
      throw unreadable(text)
    }
  }

  private func relative(_ input: String, original: String) throws(InputError) -> LoggedTime {
    var body = Substring(input)
    if body.hasSuffix(" ago") { body = body.dropLast(4) } else { body = body.dropFirst() }
    if body.hasPrefix("-") { throw unreadable(original) }
    // "a bit ago" is no bad duration but an unreadable time: say how times are written.
    guard let seconds = try? DurationText.parse(String(body)) else { throw unreadable(original) }
    return zone.loggedTime(at: now - Int64(seconds))
  }

  /// The day a word names, nil when the word is not a day at all, or an error when it looks like
  /// a date but is not a real one.
  private func day(from word: String) throws(InputError) -> CivilDate? {
    switch word {
    case "today": return today
    case "yesterday": return today.adding(days: -1)
    default: break
    }
    if let weekday = TimeParser.weekdays[word] {
      return today.adding(days: -((today.weekday - weekday + 7) % 7))
    }
    return try ISO8601Text.parseDate(word, original: word)
  }

  private func resolve(
    date: CivilDate, clock: ClockText, original: String
  ) throws(InputError)
    -> LoggedTime
  {
    let local = LocalDateTime(
      date: date, hour: clock.hour, minute: clock.minute, second: clock.second)
    switch zone.resolve(local) {
    case .unique(let instant):
      return zone.loggedTime(at: instant)
    case .skipped:
      throw InputError(
        "'\(original)' (\(date) \(local.timeDescription)) does not exist in \(zoneName): the clocks "
          + "jumped forward over it; give a time outside the gap")
    case .repeated(let first, let second):
      let choices = [first, second].map { zone.loggedTime(at: $0).iso8601 }
      throw InputError(
        "'\(original)' happened twice in \(zoneName) (the clocks went back); say which with an "
          + "offset: '\(choices[0])' or '\(choices[1])'")
    }
  }

  /// The first instant of `day`: midnight, or the end of a DST gap that swallowed midnight.
  ///
  /// A day the clocks skipped entirely (Samoa, 2011-12-30) starts when the next day does.
  private func midnight(of day: CivilDate) -> LoggedTime {
    for date in [day, day.adding(days: 1)] {
      for minutes in stride(from: 0, to: 24 * 60, by: 15) {
        let local = LocalDateTime(date: date, hour: minutes / 60, minute: minutes % 60)
        switch zone.resolve(local) {
        case .unique(let instant), .repeated(let instant, _): return zone.loggedTime(at: instant)
        case .skipped: continue
        }
      }
    }
    return zone.loggedTime(at: LocalDateTime(date: day, hour: 0, minute: 0).secondsAsIfUTC)
  }

  private func unreadable(_ text: String) -> InputError {
    InputError(
      "Cannot read time '\(text)'; use 'now', '08:15', '8am', 'yesterday 19:30', 'mon 12:00', "
        + "'-2h', '2026-12-01 08:15' or ISO 8601 such as '2026-12-01T08:15:00+01:00'")
  }

  /// Weekday names and their common abbreviations, 0 for Sunday.
  static let weekdays: [String: Int] = [
    "sun": 0, "sunday": 0, "mon": 1, "monday": 1, "tue": 2, "tues": 2, "tuesday": 2,
    "wed": 3, "weds": 3, "wednesday": 3, "thu": 4, "thur": 4, "thurs": 4, "thursday": 4,
    "fri": 5, "friday": 5, "sat": 6, "saturday": 6,
  ]
}
