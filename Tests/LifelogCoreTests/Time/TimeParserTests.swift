import LifelogCore
import Testing

/// The time grammar read in a zone without DST, at 11:00 UTC on Wednesday 2026-12-02.
@Suite struct TimeParserTests {
  let parser = TimeFixture.utc

  // MARK: - Now and today

  @Test func nowIsTheCurrentInstantWithTheZoneOffset() throws {
    #expect(try parser.parseTime("now") == LoggedTime(instant: TimeFixture.now, offsetMinutes: 0))
    #expect(
      try parser.parseTime("  NOW ") == LoggedTime(instant: TimeFixture.now, offsetMinutes: 0))
    let plusOne = TimeParser(now: TimeFixture.now, zone: FixedOffsetZone(seconds: 3600))
    #expect(try plusOne.parseTime("now").iso8601 == "2026-12-02T12:00:00+01:00")
  }

  @Test func todayIsTheDateOnTheLocalWallClock() throws {
    #expect(parser.today == CivilDate(year: 2026, month: 12, day: 2))
    // 23:30 UTC is already tomorrow one hour east, and 02:00 UTC is still yesterday in New York.
    let lateUTC: Int64 = 1_796_254_200  // 2026-12-02T23:30:00Z
    let east = TimeParser(now: lateUTC, zone: FixedOffsetZone(seconds: 3600))
    #expect(east.today == CivilDate(year: 2026, month: 12, day: 3))
    #expect(try east.parseTime("08:15").iso8601 == "2026-12-03T08:15:00+01:00")
    let earlyUTC: Int64 = 1_796_176_800  // 2026-12-02T02:00:00Z
    let west = TimeParser(now: earlyUTC, zone: FixedOffsetZone(seconds: -5 * 3600))
    #expect(west.today == CivilDate(year: 2026, month: 12, day: 1))
    #expect(try west.parseTime("yesterday 8am").iso8601 == "2026-11-30T08:00:00-05:00")
  }

  // MARK: - Times of day

  @Test(arguments: [
    ("08:15", "2026-12-02T08:15:00+00:00"),
    ("8:15", "2026-12-02T08:15:00+00:00"),
    ("08:15:30", "2026-12-02T08:15:30+00:00"),
    ("00:00", "2026-12-02T00:00:00+00:00"),
    ("23:59:59", "2026-12-02T23:59:59+00:00"),
    ("8am", "2026-12-02T08:00:00+00:00"),
    ("8 am", "2026-12-02T08:00:00+00:00"),
    ("8AM", "2026-12-02T08:00:00+00:00"),
    ("08am", "2026-12-02T08:00:00+00:00"),
    ("1am", "2026-12-02T01:00:00+00:00"),
    ("7:30pm", "2026-12-02T19:30:00+00:00"),
    ("7:30 PM", "2026-12-02T19:30:00+00:00"),
    ("11:59pm", "2026-12-02T23:59:00+00:00"),
    ("12am", "2026-12-02T00:00:00+00:00"),
    ("12:30am", "2026-12-02T00:30:00+00:00"),
    ("12pm", "2026-12-02T12:00:00+00:00"),
    ("12:30pm", "2026-12-02T12:30:00+00:00"),
    ("  08:15\t", "2026-12-02T08:15:00+00:00"),
    ("today 08:15", "2026-12-02T08:15:00+00:00"),
    ("Today 9pm", "2026-12-02T21:00:00+00:00"),
  ])
  func aTimeOfDayIsToday(input: String, expected: String) {
    expectTime(input, is: expected)
  }

  @Test(arguments: [
    ("yesterday 19:30", "2026-12-01T19:30:00+00:00"),
    ("yesterday 8am", "2026-12-01T08:00:00+00:00"),
    ("yesterday 8 am", "2026-12-01T08:00:00+00:00"),
    ("Yesterday 8AM", "2026-12-01T08:00:00+00:00"),
    ("yesterday 12am", "2026-12-01T00:00:00+00:00"),
    ("yesterday 12pm", "2026-12-01T12:00:00+00:00"),
    ("yesterday 7:30pm", "2026-12-01T19:30:00+00:00"),
    ("yesterday  23:59:59", "2026-12-01T23:59:59+00:00"),
  ])
  func yesterdayWithATimeIsThatTimeYesterday(input: String, expected: String) {
    expectTime(input, is: expected)
  }

  @Test func yesterdayAtEightIsNotMidnight() throws {
    let time = try parser.parseTime("yesterday 8am")
    #expect(time.local.hour == 8)
    #expect(time.instant == 1_796_112_000)  // 2026-12-01T08:00:00Z
  }

  // MARK: - Weekdays

  @Test(arguments: [
    ("mon 12:00", "2026-11-30T12:00:00+00:00"),
    ("monday 12:00", "2026-11-30T12:00:00+00:00"),
    ("MON 8am", "2026-11-30T08:00:00+00:00"),
    ("tue 12:00", "2026-12-01T12:00:00+00:00"),
    ("tues 12:00", "2026-12-01T12:00:00+00:00"),
    ("tuesday 12:00", "2026-12-01T12:00:00+00:00"),
    ("wed 09:00", "2026-12-02T09:00:00+00:00"),
    ("weds 09:00", "2026-12-02T09:00:00+00:00"),
    ("wednesday 09:00", "2026-12-02T09:00:00+00:00"),
    ("thu 12:00", "2026-11-26T12:00:00+00:00"),
    ("thur 12:00", "2026-11-26T12:00:00+00:00"),
    ("thurs 12:00", "2026-11-26T12:00:00+00:00"),
    ("thursday 12:00", "2026-11-26T12:00:00+00:00"),
    ("fri 7pm", "2026-11-27T19:00:00+00:00"),
    ("friday 7 pm", "2026-11-27T19:00:00+00:00"),
    ("sat 10:00", "2026-11-28T10:00:00+00:00"),
    ("saturday 10:00", "2026-11-28T10:00:00+00:00"),
    ("sun 10:00", "2026-11-29T10:00:00+00:00"),
    ("sunday 10:00", "2026-11-29T10:00:00+00:00"),
  ])
  func aWeekdayIsItsMostRecentDayCountingToday(input: String, expected: String) {
    expectTime(input, is: expected)
  }

  @Test func everyWeekdayNameFallsInTheLastSevenDays() throws {
    let names = [
      ("sun", 0), ("mon", 1), ("tue", 2), ("wed", 3), ("thu", 4), ("fri", 5), ("sat", 6),
    ]
    for (name, weekday) in names {
      let day = try parser.parseDay(name)
      #expect(day.weekday == weekday, "\(name)")
      #expect(day <= parser.today, "\(name)")
      #expect(day > parser.today.adding(days: -7), "\(name)")
    }
  }

  @Test func todaysWeekdayMeansTodayEvenForALaterHour() throws {
    // Today is Wednesday; 'wed 23:00' is today, not a week ago.
    expectTime("wed 23:00", is: "2026-12-02T23:00:00+00:00")
  }

  // MARK: - Dates

  @Test(arguments: [
    ("2026-12-01 08:15", "2026-12-01T08:15:00+00:00"),
    ("2026-12-01T08:15", "2026-12-01T08:15:00+00:00"),
    ("2026-12-01t08:15", "2026-12-01T08:15:00+00:00"),
    ("2026-12-01 08:15:30", "2026-12-01T08:15:30+00:00"),
    ("2026-12-01T08:15:30", "2026-12-01T08:15:30+00:00"),
    ("2026-12-01 8am", "2026-12-01T08:00:00+00:00"),
    ("2026-12-01 8 am", "2026-12-01T08:00:00+00:00"),
    ("2026-12-01T7:30pm", "2026-12-01T19:30:00+00:00"),
    ("2024-02-29 12:00", "2024-02-29T12:00:00+00:00"),
    ("2000-02-29 12:00", "2000-02-29T12:00:00+00:00"),
    ("1999-12-31 23:59", "1999-12-31T23:59:00+00:00"),
    ("2027-01-01 00:00", "2027-01-01T00:00:00+00:00"),
  ])
  func aDateWithATimeIsThatLocalTime(input: String, expected: String) {
    expectTime(input, is: expected)
  }

  @Test func aDateWithATimeIsTheExactInstant() throws {
    #expect(try parser.parseTime("2026-12-01 08:15").instant == 1_796_112_900)
    let plusOne = TimeParser(now: TimeFixture.now, zone: FixedOffsetZone(seconds: 3600))
    let time = try plusOne.parseTime("2026-12-01T08:15")
    #expect(time == LoggedTime(instant: 1_796_109_300, offsetMinutes: 60))
  }

  // MARK: - Relative times

  @Test(arguments: [
    ("-2h", 7200),
    ("-30m", 1800),
    ("-90s", 90),
    ("-1h30m", 5400),
    ("-1:30", 5400),
    ("-0m", 0),
    ("2h ago", 7200),
    ("30m ago", 1800),
    ("2 hours ago", 7200),
    ("1h 30m ago", 5400),
    ("  -2H ", 7200),
  ])
  func aRelativeTimeCountsBackFromNow(input: String, seconds: Int) throws {
    let time = try parser.parseTime(input)
    #expect(time == LoggedTime(instant: TimeFixture.now - Int64(seconds), offsetMinutes: 0))
  }

  @Test func aRelativeTimeCrossingMidnightLandsOnTheDayBefore() {
    expectTime("-12h", is: "2026-12-01T23:00:00+00:00")
    expectTime("36h ago", is: "2026-11-30T23:00:00+00:00")
  }

  @Test(arguments: [
    "--2h", "-2h ago", "-", "2d ago", "-90", "-2x", "- -2h", "ago 2h", "+2h", "in 2h", "1 30m ago",
  ])
  func aMalformedRelativeTimeIsRefused(input: String) {
    expectInputError(mentioning: []) { try parser.parseTime(input) }
  }

  // MARK: - ISO 8601 with an offset

  @Test(arguments: [
    ("2026-12-01T08:15:00+01:00", 1_796_109_300, 60),
    ("2026-12-01T08:15:00+0100", 1_796_109_300, 60),
    ("2026-12-01T08:15:00+01", 1_796_109_300, 60),
    ("2026-12-01T08:15+01:00", 1_796_109_300, 60),
    ("2026-12-01 08:15:00+01:00", 1_796_109_300, 60),
    ("2026-12-01T08:15:00.000+01:00", 1_796_109_300, 60),
    ("2026-12-01T08:15:00.0+01:00", 1_796_109_300, 60),
    ("2026-12-01T08:15:00Z", 1_796_112_900, 0),
    ("2026-12-01t08:15:00z", 1_796_112_900, 0),
    ("2026-12-01T08:15:00.000Z", 1_796_112_900, 0),
    ("2026-12-01T08:15:00+00:00", 1_796_112_900, 0),
    ("2026-12-01T08:15:00-00:00", 1_796_112_900, 0),
    ("2026-12-01T08:15:00+0530", 1_796_093_100, 330),
    ("2026-12-01T08:15:00+05:30", 1_796_093_100, 330),
    ("2026-12-01T08:15:00+05:45", 1_796_092_200, 345),
    ("2026-12-01T08:15:00-05:00", 1_796_130_900, -300),
    ("2026-12-01T08:15:00-0930", 1_796_147_100, -570),
    ("2026-12-01T08:15:00+14:00", 1_796_062_500, 840),
    ("2026-12-01T08:15:00-12:00", 1_796_156_100, -720),
    ("2026-12-01T08:15:30+01:00", 1_796_109_330, 60),
  ])
  func anISOTimeWithAnOffsetIsThatExactInstant(input: String, instant: Int64, offset: Int) throws {
    #expect(try parser.parseTime(input) == LoggedTime(instant: instant, offsetMinutes: offset))
  }

  @Test func anExplicitOffsetWinsOverTheLocalZone() throws {
    let warsaw = TimeFixture.parser(in: "Europe/Warsaw")
    let time = try warsaw.parseTime("2026-07-01T08:00:00-04:00")
    #expect(time.offsetMinutes == -240)
    #expect(time.iso8601 == "2026-07-01T08:00:00-04:00")
  }

  @Test(arguments: [
    LoggedTime(instant: 1_796_109_300, offsetMinutes: 60),
    LoggedTime(instant: 1_796_109_300, offsetMinutes: -570),
    LoggedTime(instant: 0, offsetMinutes: 0),
    LoggedTime(instant: -1, offsetMinutes: 345),
    LoggedTime(instant: 951_782_400, offsetMinutes: -60),
  ])
  func theStoredISOFormReadsBackAsTheSameTime(time: LoggedTime) throws {
    #expect(try parser.parseTime(time.iso8601) == time)
    #expect(try TimeFixture.parser(in: "America/New_York").parseTime(time.iso8601) == time)
  }

  @Test(arguments: [
    "2026-12-01T08:15:00.5Z",
    "2026-12-01T08:15:00.001+01:00",
    "2026-12-01T08:15:00.100+01:00",
  ])
  func aFractionOfASecondIsRefused(input: String) {
    expectInputError(mentioning: ["'\(input)'", "fraction of a second"]) {
      try parser.parseTime(input)
    }
  }

  @Test(arguments: [
    "2026-12-01T08:15:00.Z",
    "2026-12-01T08:15:00+1:00",
    "2026-12-01T08:15:00+1",
    "2026-12-01T08:15:00+100",
    "2026-12-01T08:15:00+19:00",
    "2026-12-01T08:15:00+01:60",
    "2026-12-01T08:15:00+01:00:00",
    "2026-12-01T08:15:00+0:100",
    "2026-12-01T08:15:00+0a:00",
    "2026-12-01T08:15:00+",
    "2026-12-01T08:15:00zz",
    "2026-12-01T08:15:00 +01:00",
    "2026-12-01T25:00:00Z",
    "2026-12-01T24:00:00Z",
    "2026-12-01T08:60:00Z",
    "2026-12-01T08:15:60Z",
    "2026-12-01T8am+01:00",
    "2026-12-01T08+01:00",
    "2026-12-01TZ",
    "2026-02-30T08:00:00Z",
    "2025-13-45T08:00:00+01:00",
  ])
  func aMalformedISOTimeIsRefusedNamingTheInput(input: String) {
    expectInputError(mentioning: ["'\(input)'"]) { try parser.parseTime(input) }
  }

  // MARK: - Refusals

  @Test(arguments: [
    ("25:00", "hour 25"),
    ("24:00", "hour 24"),
    ("13pm", "hour 13"),
    ("13 pm", "hour 13"),
    ("0am", "hour 0"),
    ("00:30am", "hour 0"),
    ("08:60", "past 59"),
    ("08:15:60", "past 59"),
    ("7:60pm", "past 59"),
    ("tomorrowish", "Cannot read time"),
    ("tomorrow 08:00", "Cannot read time"),
    ("", "Cannot read time"),
    ("8", "Cannot read time"),
    ("0815", "Cannot read time"),
    ("8:5", "Cannot read time"),
    ("008:15", "Cannot read time"),
    ("8h", "Cannot read time"),
    ("noon", "Cannot read time"),
    ("8am yesterday", "Cannot read time"),
    ("yesterday 19:30 today", "Cannot read time"),
    ("yesterday 8", "time of day"),
    ("yesterday noon", "time of day"),
    ("yesterday 25:00", "hour 25"),
    ("2026-12-01 8", "time of day"),
    ("08:15 2026-12-01", "Cannot read time"),
    ("٠٨:١٥", "Cannot read time"),
  ])
  func anUnreadableTimeIsRefusedNamingTheInput(input: String, reason: String) {
    expectInputError(mentioning: ["'\(input)'", reason]) { try parser.parseTime(input) }
  }

  @Test(arguments: ["   ", "\t"])
  func blankInputIsRefused(input: String) {
    expectInputError(mentioning: ["Cannot read time"]) { try parser.parseTime(input) }
  }

  @Test(arguments: [
    ("2025-13-45 08:00", "2025-13-45"),
    ("2026-02-30 08:00", "2026-02-30"),
    ("2025-02-29 08:00", "2025-02-29"),
    ("1900-02-29 08:00", "1900-02-29"),
    ("2026-04-31 08:00", "2026-04-31"),
    ("2026-00-10 08:00", "2026-00-10"),
    ("2026-12-00 08:00", "2026-12-00"),
    ("0000-01-01 08:00", "0000-01-01"),
    ("2026-02-30T08:00", "2026-02-30"),
  ])
  func anImpossibleDateIsRefusedNamingTheDate(input: String, date: String) {
    expectInputError(mentioning: ["'\(date)'", "not a real date"]) { try parser.parseTime(input) }
  }

  @Test(arguments: ["yesterday", "today", "mon", "Sunday", "2026-12-01", "2026-03-29"])
  func aBareDayIsNotATime(input: String) {
    expectInputError(mentioning: ["'\(input)'", "names a day, not a time"]) {
      try parser.parseTime(input)
    }
  }

  // MARK: - Range boundaries and days

  @Test(arguments: [
    ("2026-12-01", "2026-12-01T00:00:00+00:00"),
    ("yesterday", "2026-12-01T00:00:00+00:00"),
    ("today", "2026-12-02T00:00:00+00:00"),
    ("mon", "2026-11-30T00:00:00+00:00"),
    ("wed", "2026-12-02T00:00:00+00:00"),
    ("2024-02-29", "2024-02-29T00:00:00+00:00"),
  ])
  func aBareDayAsABoundaryIsItsMidnight(input: String, expected: String) throws {
    #expect(try parser.parseBoundary(input).iso8601 == expected)
  }

  @Test(arguments: ["yesterday 19:30", "8am", "-2h", "now", "2026-12-01T08:15:00+01:00"])
  func aBoundaryWithATimeReadsLikeATime(input: String) throws {
    #expect(try parser.parseBoundary(input) == parser.parseTime(input))
  }

  @Test(arguments: ["2026-02-30", "2025-13-45", "tomorrow", "", "25:00", "13pm"])
  func aBadBoundaryIsRefused(input: String) {
    expectInputError(mentioning: ["'\(input)'"]) { try parser.parseBoundary(input) }
  }

  @Test(arguments: [
    ("today", CivilDate(year: 2026, month: 12, day: 2)),
    (" Today ", CivilDate(year: 2026, month: 12, day: 2)),
    ("yesterday", CivilDate(year: 2026, month: 12, day: 1)),
    ("mon", CivilDate(year: 2026, month: 11, day: 30)),
    ("Wednesday", CivilDate(year: 2026, month: 12, day: 2)),
    ("thu", CivilDate(year: 2026, month: 11, day: 26)),
    ("2026-01-15", CivilDate(year: 2026, month: 1, day: 15)),
  ])
  func aDayIsReadAsADate(input: String, expected: CivilDate?) throws {
    #expect(try parser.parseDay(input) == expected)
  }

  @Test(arguments: [
    ("tomorrow", "Cannot read day"),
    ("", "Cannot read day"),
    ("08:15", "Cannot read day"),
    ("yesterday 08:15", "Cannot read day"),
    ("2026-1-15", "Cannot read day"),
    ("2026-13-01", "not a real date"),
    ("2026-02-29", "not a real date"),
  ])
  func anUnreadableDayIsRefused(input: String, reason: String) {
    expectInputError(mentioning: ["'\(input)'", reason]) { try parser.parseDay(input) }
  }
}
