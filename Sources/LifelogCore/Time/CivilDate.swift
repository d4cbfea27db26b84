/// A calendar date in the proleptic Gregorian calendar, with day arithmetic.
///
/// lifelog does its own calendar arithmetic (from Howard Hinnant's public-domain algorithms) so
/// that the everyday commands need no Foundation: start-up stays a few milliseconds.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// Creates a date, or returns nil when the fields do not name a real day (`2025-13-45`, `2026-02-30`).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...CivilDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `days` days after 1970-01-01.
  public init(daysSinceEpoch days: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
    month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
    year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
  }

  /// Days since 1970-01-01 (negative before it).
  public var daysSinceEpoch: Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let m = Int64(month)
    let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The weekday, 0 for Sunday through 6 for Saturday.
  public var weekday: Int {
    let days = daysSinceEpoch + 4  // 1970-01-01 was a Thursday
    return Int(((days % 7) + 7) % 7)
  }

  /// The date `count` days later (earlier when negative).
  public func adding(days count: Int) -> CivilDate {
    CivilDate(daysSinceEpoch: daysSinceEpoch + Int64(count))
  }

  /// `2026-12-01`.
  public var description: String { TextBytes.string { $0.date(self) } }

  public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Three-letter English weekday names, Sunday first.
  public static let weekdayAbbreviations = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
}
