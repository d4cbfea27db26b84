import LifelogCore
import Testing

@Suite struct CivilDateTests {
  /// Day counts and weekdays checked against Python's `datetime.date`.
  static let knownDays: [(String, Int64, Int)] = [
    ("0001-01-01", -719_162, 1),
    ("1600-02-29", -135_081, 2),
    ("1899-12-31", -25_568, 0),
    ("1900-02-28", -25_509, 3),
    ("1900-03-01", -25_508, 4),
    ("1969-12-31", -1, 3),
    ("1970-01-01", 0, 4),
    ("2000-02-29", 11_016, 2),
    ("2000-03-01", 11_017, 3),
    ("2024-02-29", 19_782, 4),
    ("2026-12-02", 20_789, 3),
    ("2100-02-28", 47_540, 0),
    ("2100-03-01", 47_541, 1),
    ("2400-02-29", 157_113, 2),
    ("9999-12-31", 2_932_896, 5),
  ]

  private static func date(_ text: String) throws -> CivilDate {
    let fields = text.split(separator: "-").compactMap { Int($0) }
    return try #require(CivilDate(year: fields[0], month: fields[1], day: fields[2]))
  }

  // MARK: - Day counts

  @Test(arguments: CivilDateTests.knownDays)
  func aKnownDateHasItsDayCount(text: String, days: Int64, weekday: Int) throws {
    let date = try Self.date(text)
    #expect(date.daysSinceEpoch == days)
    #expect(CivilDate(daysSinceEpoch: days) == date)
    #expect(date.description == text)
  }

  @Test(arguments: CivilDateTests.knownDays)
  func aKnownDateHasItsWeekday(text: String, days: Int64, weekday: Int) throws {
    #expect(try Self.date(text).weekday == weekday)
  }

  @Test func december2026SecondIsAWednesday() throws {
    let date = try #require(CivilDate(year: 2026, month: 12, day: 2))
    #expect(date.weekday == 3)
    #expect(CivilDate.weekdayAbbreviations[date.weekday] == "Wed")
  }

  @Test func everyDayFrom1899To2101RoundTripsAndFollowsTheDayBefore() throws {
    let first = try Self.date("1899-12-01").daysSinceEpoch
    let last = try Self.date("2101-03-01").daysSinceEpoch
    var previous = CivilDate(daysSinceEpoch: first - 1)
    var mistakes: [String] = []
    for days in first...last {
      let date = CivilDate(daysSinceEpoch: days)
      let isNextDay =
        (date.year == previous.year && date.month == previous.month && date.day == previous.day + 1)
        || (date.day == 1 && date.month == previous.month % 12 + 1
          && date.year == previous.year + (previous.month == 12 ? 1 : 0))
      if date.daysSinceEpoch != days
        || CivilDate(year: date.year, month: date.month, day: date.day) != date
        || date.weekday != (previous.weekday + 1) % 7 || !isNextDay || !(previous < date)
      {
        mistakes.append("\(days): \(previous) -> \(date)")
      }
      previous = date
    }
    #expect(mistakes.isEmpty)
    #expect(last - first == 73_504)
  }

  @Test(arguments: [1, 4, 1582, 1600, 1700, 1800, 1900, 1970, 1999, 2000, 2024, 2100, 2400, 9999])
  func everyDayOfAYearRoundTripsThroughItsDayCount(year: Int) {
    var count = 0
    for month in 1...12 {
      for day in 1...31 {
        guard let date = CivilDate(year: year, month: month, day: day) else { continue }
        #expect(CivilDate(daysSinceEpoch: date.daysSinceEpoch) == date)
        count += 1
      }
    }
    let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    #expect(count == (isLeap ? 366 : 365))
  }

  // MARK: - Validity

  @Test(arguments: [
    (2000, true), (1900, false), (2024, true), (2026, false), (2100, false), (2400, true),
    (1600, true), (4, true), (1, false),
  ])
  func februaryTwentyNinthExistsOnlyInLeapYears(year: Int, exists: Bool) {
    #expect((CivilDate(year: year, month: 2, day: 29) != nil) == exists)
    #expect(CivilDate(year: year, month: 2, day: 28) != nil)
    #expect(CivilDate(year: year, month: 2, day: 30) == nil)
  }

  @Test(arguments: [
    (2025, 13, 45), (2026, 2, 30), (2026, 0, 1), (2026, 13, 1), (2026, 1, 0), (2026, 1, 32),
    (2026, 4, 31), (2026, 6, 31), (2026, 9, 31), (2026, 11, 31), (0, 1, 1), (10_000, 1, 1),
    (-1, 1, 1), (2026, -1, 1), (2026, 1, -1),
  ])
  func anImpossibleDateIsNil(year: Int, month: Int, day: Int) {
    #expect(CivilDate(year: year, month: month, day: day) == nil)
  }

  @Test(arguments: [(2026, 1, 31), (2026, 3, 31), (2026, 4, 30), (2026, 12, 31), (1, 1, 1)])
  func theLastDayOfAMonthExists(year: Int, month: Int, day: Int) {
    #expect(CivilDate(year: year, month: month, day: day) != nil)
  }

  // MARK: - Arithmetic and order

  @Test(arguments: [
    ("2024-02-28", 1, "2024-02-29"),
    ("2024-02-28", 2, "2024-03-01"),
    ("2026-02-28", 1, "2026-03-01"),
    ("2026-01-01", -1, "2025-12-31"),
    ("2026-12-31", 1, "2027-01-01"),
    ("2026-12-02", -2, "2026-11-30"),
    ("2026-12-02", 0, "2026-12-02"),
    ("2026-12-02", 365, "2027-12-02"),
    ("2000-02-29", -366, "1999-02-28"),
    ("1970-01-01", -1, "1969-12-31"),
  ])
  func addingDaysCrossesMonthsAndYears(start: String, days: Int, end: String) throws {
    #expect(try Self.date(start).adding(days: days) == Self.date(end))
  }

  @Test func datesOrderByYearThenMonthThenDay() throws {
    let sorted = try ["2025-12-31", "2026-01-01", "2026-01-02", "2026-02-01", "2027-01-01"]
      .map(Self.date)
    #expect(sorted == sorted.shuffled().sorted())
    #expect(try Self.date("2026-01-31") < Self.date("2026-02-01"))
    #expect(try !(Self.date("2026-02-01") < Self.date("2026-02-01")))
  }

  @Test func aDateIsWrittenWithPaddedFields() throws {
    #expect(try Self.date("0001-02-03").description == "0001-02-03")
    #expect("\(try #require(CivilDate(year: 987, month: 6, day: 5)))" == "0987-06-05")
  }
}
