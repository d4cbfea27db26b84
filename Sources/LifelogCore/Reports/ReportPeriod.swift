/// One day, week or month of an activity report, cut to the report's range.
public struct ReportPeriod: Hashable, Sendable {
  /// The first day of the whole period (a week starts on `weekStartsOn`, a month on the 1st).
  public let start: CivilDate
  /// The last day of the whole period.
  public let end: CivilDate
  /// The first day of the period inside the range.
  public let firstDay: CivilDate
  /// The last day of the period inside the range.
  public let lastDay: CivilDate

  /// Days of the period inside the range.
  public var dayCount: Int { Int(lastDay.daysSinceEpoch - firstDay.daysSinceEpoch) + 1 }

  /// Days of the whole period (1, 7, or the month's length).
  public var fullDayCount: Int { Int(end.daysSinceEpoch - start.daysSinceEpoch) + 1 }

  /// Whether the range cuts the period short.
  public var isPartial: Bool { dayCount < fullDayCount }

  /// The periods that cover `range`, in order.
  public static func covering(
    _ range: ReportRange, by length: Target.Period, weekStartsOn: Int
  )
    -> [ReportPeriod]
  {
    var periods: [ReportPeriod] = []
    var day = range.from
    while day <= range.to {
      let start = ReportPeriod.start(of: day, by: length, weekStartsOn: weekStartsOn)
      let end = ReportPeriod.end(ofPeriodStarting: start, by: length)
      periods.append(
        ReportPeriod(
          start: start, end: end, firstDay: max(start, range.from), lastDay: min(end, range.to)))
      day = end.adding(days: 1)
    }
    return periods
  }

  /// The first day of the period of `length` that holds `day`.
  public static func start(
    of day: CivilDate, by length: Target.Period, weekStartsOn: Int
  ) -> CivilDate {
    switch length {
    case .day: return day
    case .week: return day.adding(days: -((day.weekday - weekStartsOn + 7) % 7))
    case .month: return day.adding(days: 1 - day.day)
    }
  }

  static func end(ofPeriodStarting start: CivilDate, by length: Target.Period) -> CivilDate {
    switch length {
    case .day: return start
    case .week: return start.adding(days: 6)
    case .month:
      return start.adding(days: CivilDate.daysIn(month: start.month, year: start.year) - 1)
    }
  }

  /// How many days the period of `length` that holds `day` has (a target per month spreads
  /// over the days of that month).
  static func length(of period: Target.Period, holding day: CivilDate) -> Int {
    switch period {
    case .day: return 1
    case .week: return 7
    case .month: return CivilDate.daysIn(month: day.month, year: day.year)
    }
  }
}
