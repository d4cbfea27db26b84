/// The settings a report is computed with, and how a logged time finds its report day.
///
/// A report day begins at ``dayStartsAtMinutes`` on the wall clock where each entry was logged,
/// so a 01:30 snack belongs to the day before when days start at 04:00, and a day on which the
/// clocks change (23 or 25 hours long) is still one day: everything here counts wall-clock
/// minutes, never UTC hours.
public struct ReportSettings: Hashable, Sendable {
  /// Gaps between meals longer than this are flagged as too long.
  public var mealGapHours: Double
  /// Gaps between meals shorter than this are flagged as too short (0: never).
  public var mealGapMinHours: Double
  /// When a report day begins, in minutes after midnight (04:00 is 240).
  public var dayStartsAtMinutes: Int
  /// The first day of a week, 0 for Sunday through 6 for Saturday.
  public var weekStartsOn: Int
  /// The person's name for report titles; empty when not set.
  public var name: String
  /// The report day under way when the report is made (nil: every day is over).
  ///
  /// It and any later day are unfinished: shown as such and left out of the summary, so a
  /// morning's report does not count today, one breakfast so far, as a day off the rhythm.
  public var today: CivilDate?

  public init(
    mealGapHours: Double = 3, mealGapMinHours: Double = 2, dayStartsAtMinutes: Int = 240,
    weekStartsOn: Int = 1, name: String = ""
  ) {
    self.mealGapHours = mealGapHours
    self.mealGapMinHours = mealGapMinHours
    self.dayStartsAtMinutes = dayStartsAtMinutes
    self.weekStartsOn = weekStartsOn
    self.name = name
  }

  /// Reads the settings from their stored text (as ``LogStore/allSettings()`` gives them); a value
  /// that ``Setting/inForce(_:)`` does not accept falls back to the default, so a synced `inf` or
  /// `-1` never reaches the report's arithmetic.
  public init(values: [Setting: String]) {
    self.init()
    if let text = values[.mealGapHours].flatMap(Setting.mealGapHours.inForce),
      let hours = Double(text)
    {
      mealGapHours = hours
    }
    if let text = values[.mealGapMinHours].flatMap(Setting.mealGapMinHours.inForce),
      let hours = Double(text)
    {
      mealGapMinHours = hours
    }
    if let text = values[.dayStartsAt] {
      let parts = text.split(separator: ":")
      if parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
        (0..<24).contains(hour),
        (0..<60).contains(minute)
      {
        dayStartsAtMinutes = hour * 60 + minute
      }
    }
    if let text = values[.weekStartsOn],
      let day = Setting.weekdayNames.firstIndex(of: text.lowercased())
    {
      weekStartsOn = day
    }
    name = values[.name] ?? ""
  }

  /// ``mealGapHours`` in minutes: a gap of more than this many minutes is flagged.
  public var mealGapMinutes: Double { mealGapHours * 60 }

  /// ``mealGapMinHours`` in minutes, held at most at ``mealGapMinutes``: a minimum set above the
  /// maximum (each machine may set one) leaves no gap both too short and too long.
  public var mealGapMinMinutes: Double { min(mealGapMinHours * 60, mealGapMinutes) }

  /// How a gap of `minutes` between two meals of one day stands against the rule.
  public func gapFlag(minutes: Int) -> MealGapFlag? {
    MealGapFlag(gapMinutes: minutes, minimum: mealGapMinMinutes, maximum: mealGapMinutes)
  }

  /// The report day `time` belongs to.
  public func day(of time: LoggedTime) -> CivilDate {
    CivilDate(daysSinceEpoch: dayNumber(of: time))
  }

  /// Minutes since the report day of `time` began, on the logged wall clock: 0 ..< 1440.
  public func minuteOfDay(_ time: LoggedTime) -> Int {
    let shifted = shiftedWallSeconds(time)
    return Int(shifted - ReportSettings.floorDiv(shifted, 86_400) * 86_400) / 60
  }

  /// The wall-clock minute after midnight (0 ..< 1440) that a minute of the report day shows.
  public func clockMinute(ofMinuteOfDay minute: Int) -> Int {
    ((minute + dayStartsAtMinutes) % 1440 + 1440) % 1440
  }

  /// Days since 1970-01-01 of the report day of `time`.
  public func dayNumber(of time: LoggedTime) -> Int64 {
    ReportSettings.floorDiv(shiftedWallSeconds(time), 86_400)
  }

  /// The wall-clock reading of `time` as seconds since 1970 (as if the zone were UTC), moved back
  /// by the start of the day so that report days begin at a multiple of 86,400.
  private func shiftedWallSeconds(_ time: LoggedTime) -> Int64 {
    time.instant + Int64(time.offsetMinutes * 60) - Int64(dayStartsAtMinutes * 60)
  }

  static func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
    value >= 0 ? value / divisor : (value - divisor + 1) / divisor
  }

  static func floorDivInt(_ value: Int, _ divisor: Int) -> Int {
    value >= 0 ? value / divisor : (value - divisor + 1) / divisor
  }
}

extension LogStore {
  /// The report settings stored in this log (defaults for those never set).
  public func reportSettings() throws -> ReportSettings {
    var values: [Setting: String] = [:]
    for (setting, value, _) in try allSettings() { values[setting] = value }
    return ReportSettings(values: values)
  }
}
