import LifelogCore
import Testing

/// Wall-clock times around the 2026 DST changes in Warsaw and New York.
///
/// Warsaw: 02:00 -> 03:00 on 2026-03-29, 03:00 -> 02:00 on 2026-10-25 (+01:00 / +02:00).
/// New York: 02:00 -> 03:00 on 2026-03-08, 02:00 -> 01:00 on 2026-11-01 (-05:00 / -04:00).
@Suite struct TimeParserDSTTests {
  let warsaw = TimeFixture.parser(in: "Europe/Warsaw")
  let newYork = TimeFixture.parser(in: "America/New_York")

  // MARK: - Offsets either side

  @Test(arguments: [
    ("2026-01-15 12:00", 60),
    ("2026-03-29 01:59", 60),
    ("2026-03-29 01:59:59", 60),
    ("2026-03-29 03:00", 120),
    ("2026-07-15 12:00", 120),
    ("2026-10-25 01:59", 120),
    ("2026-10-25 03:00", 60),
    ("2026-12-02 12:00", 60),
  ])
  func warsawUsesTheOffsetInForceAtThatLocalTime(input: String, offset: Int) throws {
    let time = try warsaw.parseTime(input)
    #expect(time.offsetMinutes == offset)
    #expect(time.local.timeDescription == String(input.suffix(input.count - 11)))
  }

  @Test(arguments: [
    ("2026-01-15 12:00", -300),
    ("2026-03-08 01:59", -300),
    ("2026-03-08 03:00", -240),
    ("2026-07-15 12:00", -240),
    ("2026-11-01 00:59", -240),
    ("2026-11-01 02:00", -300),
    ("2026-12-02 12:00", -300),
  ])
  func newYorkUsesTheOffsetInForceAtThatLocalTime(input: String, offset: Int) throws {
    let time = try newYork.parseTime(input)
    #expect(time.offsetMinutes == offset)
    #expect(time.local.timeDescription == String(input.suffix(input.count - 11)))
  }

  @Test func theInstantsEitherSideOfTheWarsawGapAreOneSecondApart() throws {
    let before = try warsaw.parseTime("2026-03-29 01:59:59")
    let after = try warsaw.parseTime("2026-03-29 03:00")
    #expect(after.instant == 1_774_746_000)  // 2026-03-29T01:00:00Z
    #expect(after.instant - before.instant == 1)
  }

  @Test func nowCarriesTheOffsetOfTheSeason() throws {
    #expect(try warsaw.parseTime("now").iso8601 == "2026-12-02T12:00:00+01:00")
    #expect(try newYork.parseTime("now").iso8601 == "2026-12-02T06:00:00-05:00")
    let july: Int64 = 1_783_591_200  // 2026-07-09T10:00:00Z
    #expect(
      try TimeFixture.parser(in: "Europe/Warsaw", now: july).parseTime("now").iso8601
        == "2026-07-09T12:00:00+02:00")
    #expect(
      try TimeFixture.parser(in: "America/New_York", now: july).parseTime("now").iso8601
        == "2026-07-09T06:00:00-04:00")
  }

  // MARK: - Skipped times

  @Test(arguments: [
    "2026-03-29 02:30", "2026-03-29 02:00", "2026-03-29 02:59:59", "2026-03-29 2:30am",
    "2026-03-29T02:30",
  ])
  func aTimeSkippedInWarsawIsRefused(input: String) {
    expectInputError(mentioning: ["'\(input)'", "does not exist in Europe/Warsaw", "2026-03-29"]) {
      try warsaw.parseTime(input)
    }
  }

  @Test(arguments: ["2026-03-08 02:30", "2026-03-08 02:00", "2026-03-08 2:59am"])
  func aTimeSkippedInNewYorkIsRefused(input: String) {
    expectInputError(mentioning: ["'\(input)'", "does not exist in America/New_York"]) {
      try newYork.parseTime(input)
    }
  }

  @Test func aSkippedTimeNamedByRelativeWordsIsRefused() {
    let mondayAfter: Int64 = 1_774_864_800  // 2026-03-30T12:00:00+02:00
    let parser = TimeFixture.parser(in: "Europe/Warsaw", now: mondayAfter)
    expectInputError(mentioning: ["'yesterday 2:30am'", "2026-03-29 02:30"]) {
      try parser.parseTime("yesterday 2:30am")
    }
    expectInputError(mentioning: ["'sun 02:30'"]) { try parser.parseTime("sun 02:30") }
  }

  @Test func anExplicitOffsetIsTakenAsWrittenEvenInsideTheGap() throws {
    // An ISO time with an offset names an instant exactly; it is not checked against the zone.
    let time = try warsaw.parseTime("2026-03-29T02:30:00+01:00")
    #expect(time == LoggedTime(instant: 1_774_747_800, offsetMinutes: 60))
  }

  // MARK: - Repeated times

  @Test func aTimeRepeatedInWarsawIsRefusedOfferingBothOffsets() {
    expectInputError(
      mentioning: [
        "'2026-10-25 02:30'", "happened twice in Europe/Warsaw",
        "'2026-10-25T02:30:00+02:00'", "'2026-10-25T02:30:00+01:00'",
      ]
    ) { try warsaw.parseTime("2026-10-25 02:30") }
  }

  @Test func aTimeRepeatedInNewYorkIsRefusedOfferingBothOffsets() {
    expectInputError(
      mentioning: [
        "'2026-11-01 01:30'", "happened twice in America/New_York",
        "'2026-11-01T01:30:00-04:00'", "'2026-11-01T01:30:00-05:00'",
      ]
    ) { try newYork.parseTime("2026-11-01 01:30") }
  }

  @Test(arguments: [
    "2026-10-25 02:00", "2026-10-25 02:59:59", "2026-10-25T02:30", "2026-10-25 2am",
  ])
  func everyTimeInTheWarsawOverlapIsRefused(input: String) {
    expectInputError(mentioning: ["'\(input)'", "happened twice"]) { try warsaw.parseTime(input) }
  }

  @Test(arguments: [
    ("2026-10-25T02:30:00+02:00", 1_792_888_200, 120),
    ("2026-10-25T02:30:00+01:00", 1_792_891_800, 60),
    ("2026-10-25T02:30+0200", 1_792_888_200, 120),
    ("2026-10-25 02:30:00+01", 1_792_891_800, 60),
  ])
  func aRepeatedWarsawTimeWithAnOffsetIsAccepted(input: String, instant: Int64, offset: Int) throws
  {
    #expect(try warsaw.parseTime(input) == LoggedTime(instant: instant, offsetMinutes: offset))
  }

  @Test func theOffsetsOfferedForARepeatedTimeReadBackAnHourApart() throws {
    let first = try newYork.parseTime("2026-11-01T01:30:00-04:00")
    let second = try newYork.parseTime("2026-11-01T01:30:00-05:00")
    #expect(second.instant - first.instant == 3600)
    #expect(first.local == second.local)
    #expect(first.instant == 1_793_511_000)  // 2026-11-01T05:30:00Z
  }

  // MARK: - Relative times across a change

  @Test func yesterdayAtATimeUsesThatDaysOffset() {
    let mondayAfter: Int64 = 1_774_864_800  // 2026-03-30T12:00:00+02:00
    let parser = TimeFixture.parser(in: "Europe/Warsaw", now: mondayAfter)
    expectTime("yesterday 8am", is: "2026-03-29T08:00:00+02:00", parser: parser)
    expectTime("yesterday 01:30", is: "2026-03-29T01:30:00+01:00", parser: parser)
    expectTime("sun 12am", is: "2026-03-29T00:00:00+01:00", parser: parser)
    expectTime("sat 19:30", is: "2026-03-28T19:30:00+01:00", parser: parser)
  }

  @Test func countingBackOverTheGapGivesTheEarlierOffset() {
    let afterJump: Int64 = 1_774_747_800  // 2026-03-29T03:30:00+02:00
    let parser = TimeFixture.parser(in: "Europe/Warsaw", now: afterJump)
    expectTime("-1h", is: "2026-03-29T01:30:00+01:00", parser: parser)
    expectTime("30m ago", is: "2026-03-29T03:00:00+02:00", parser: parser)
    expectTime("31m ago", is: "2026-03-29T01:59:00+01:00", parser: parser)
  }

  @Test func countingBackIntoTheOverlapGivesTheInstantNotTheWallClock() throws {
    let afterFallBack: Int64 = 1_792_893_600  // 2026-10-25T03:00:00+01:00
    let parser = TimeFixture.parser(in: "Europe/Warsaw", now: afterFallBack)
    #expect(try parser.parseTime("-30m").iso8601 == "2026-10-25T02:30:00+01:00")
    #expect(try parser.parseTime("-90m").iso8601 == "2026-10-25T02:30:00+02:00")
    #expect(try parser.parseTime("-1h30m").instant == afterFallBack - 5400)
  }

  // MARK: - Days and boundaries

  @Test func aBareDayIsRefusedAsATimeButIsMidnightAsABoundary() throws {
    expectInputError(mentioning: ["'2026-03-29'", "names a day"]) {
      try warsaw.parseTime("2026-03-29")
    }
    let midnight = try warsaw.parseBoundary("2026-03-29")
    #expect(midnight == LoggedTime(instant: 1_774_738_800, offsetMinutes: 60))
    #expect(midnight.iso8601 == "2026-03-29T00:00:00+01:00")
  }

  @Test(arguments: [
    ("Europe/Warsaw", "2026-03-29", "2026-03-29T00:00:00+01:00"),
    ("Europe/Warsaw", "2026-03-30", "2026-03-30T00:00:00+02:00"),
    ("Europe/Warsaw", "2026-10-25", "2026-10-25T00:00:00+02:00"),
    ("Europe/Warsaw", "2026-10-26", "2026-10-26T00:00:00+01:00"),
    ("America/New_York", "2026-03-08", "2026-03-08T00:00:00-05:00"),
    ("America/New_York", "2026-03-09", "2026-03-09T00:00:00-04:00"),
    ("America/New_York", "2026-11-01", "2026-11-01T00:00:00-04:00"),
    ("America/New_York", "2026-11-02", "2026-11-02T00:00:00-05:00"),
  ])
  func aDayBoundaryIsLocalMidnightWithItsOffset(
    zone: String, day: String, expected: String
  )
    throws
  {
    #expect(try TimeFixture.parser(in: zone).parseBoundary(day).iso8601 == expected)
  }

  @Test func aDayWhoseMidnightIsSkippedStartsWhenTheClocksResume() throws {
    // Havana jumps from 00:00 to 01:00 on 2026-03-08.
    let havana = TimeFixture.parser(in: "America/Havana")
    #expect(try havana.parseBoundary("2026-03-08").iso8601 == "2026-03-08T01:00:00-04:00")
    expectInputError(mentioning: ["does not exist"]) { try havana.parseTime("2026-03-08 00:30") }
    // Sao Paulo jumped from 00:00 to 01:00 on 2018-11-04.
    let saoPaulo = TimeFixture.parser(in: "America/Sao_Paulo")
    #expect(try saoPaulo.parseBoundary("2018-11-04").iso8601 == "2018-11-04T01:00:00-02:00")
  }

  @Test func aDayWhoseMidnightIsRepeatedStartsAtTheFirstMidnight() throws {
    // Havana goes back from 01:00 to 00:00 on 2026-11-01.
    let havana = TimeFixture.parser(in: "America/Havana")
    let start = try havana.parseBoundary("2026-11-01")
    #expect(start.iso8601 == "2026-11-01T00:00:00-04:00")
    #expect(start.instant == 1_793_505_600)  // 2026-11-01T04:00:00Z
  }

  @Test func aDayThatNeverHappenedStartsWhenTheNextDayBegins() throws {
    // Samoa skipped 2011-12-30 entirely: 2011-12-29 23:59:59 -10:00 was followed by
    // 2011-12-31 00:00:00 +14:00 (2011-12-30T10:00:00Z).
    let apia = TimeFixture.parser(in: "Pacific/Apia")
    let start = try apia.parseBoundary("2011-12-30")
    #expect(start.instant == 1_325_239_200)
    #expect(start.iso8601 == "2011-12-31T00:00:00+14:00")
    #expect(try apia.parseBoundary("2011-12-31") == start)
    expectInputError(mentioning: ["'2011-12-30 12:00'", "does not exist in Pacific/Apia"]) {
      try apia.parseTime("2011-12-30 12:00")
    }
  }
}
