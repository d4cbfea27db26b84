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
    -> ReportPeriods
  {
    ReportPeriods(range, by: length, weekStartsOn: weekStartsOn)
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

  /// How many of the days `first` through `last` lie in periods of `period` of each length
  /// (1 or 7 days; 28 to 31 for months), a month at a time rather than a day at a time: a target
  /// over the whole calendar is spread in 97,000 steps, not 2.96 million.
  static func daysByLength(
    of period: Target.Period, from first: CivilDate, through last: CivilDate
  ) -> [Int: Int] {
    guard first <= last else { return [:] }
    let days = Int(last.daysSinceEpoch - first.daysSinceEpoch) + 1
    switch period {
    case .day: return [1: days]
    case .week: return [7: days]
    case .month:
      var counts: [Int: Int] = [:]
      var day = first
      while day <= last {
        let length = CivilDate.daysIn(month: day.month, year: day.year)
        let monthEnd = day.adding(days: length - day.day)
        let end = min(monthEnd, last)
        counts[length, default: 0] += Int(end.daysSinceEpoch - day.daysSinceEpoch) + 1
        day = monthEnd.adding(days: 1)
      }
      return counts
    }
  }
}

/// The periods that cover a range, in order, made when asked for: a report over the whole
/// calendar (2.96 million days, 97,000 months) holds three dates and a count, not a period
/// each.
public struct ReportPeriods: RandomAccessCollection, Sendable {
  public let range: ReportRange
  public let length: Target.Period
  /// The first day of the first period (before the range's first day when the range cuts it).
  private let firstStart: CivilDate
  public let count: Int

  public init(_ range: ReportRange, by length: Target.Period, weekStartsOn: Int) {
    self.range = range
    self.length = length
    firstStart = ReportPeriod.start(of: range.from, by: length, weekStartsOn: weekStartsOn)
    switch length {
    case .day: count = range.dayCount
    case .week: count = Int((range.to.daysSinceEpoch - firstStart.daysSinceEpoch) / 7) + 1
    case .month: count = Self.monthNumber(range.to) - Self.monthNumber(range.from) + 1
    }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  public subscript(index: Int) -> ReportPeriod {
    let start: CivilDate
    switch length {
    case .day: start = range.from.adding(days: index)
    case .week: start = firstStart.adding(days: 7 * index)
    case .month:
      let month = Self.monthNumber(range.from) + index
      // The range lies in years 1900...9999, so its months are real dates.
      start = CivilDate(year: month / 12, month: month % 12 + 1, day: 1) ?? range.to
    }
    let end = ReportPeriod.end(ofPeriodStarting: start, by: length)
    return ReportPeriod(
      start: start, end: end, firstDay: Swift.max(start, range.from),
      lastDay: Swift.min(end, range.to))
  }

  /// The position of the period holding the day `day` days after the range's first day, or nil
  /// when the range does not hold that day.
  public func index(ofDay day: Int) -> Int? {
    guard day >= 0 && day < range.dayCount else { return nil }
    switch length {
    case .day: return day
    case .week:
      return Int((range.from.daysSinceEpoch - firstStart.daysSinceEpoch + Int64(day)) / 7)
    case .month:
      return Self.monthNumber(range.from.adding(days: day)) - Self.monthNumber(range.from)
    }
  }

  /// Months since the start of year 0.
  private static func monthNumber(_ date: CivilDate) -> Int { date.year * 12 + date.month - 1 }
}
