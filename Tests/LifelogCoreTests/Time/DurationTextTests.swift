import LifelogCore
import Testing

@Suite struct DurationTextTests {
  // MARK: - Parsing

  @Test(arguments: [
    ("45m", 2700),
    ("1h30m", 5400),
    ("1h 30m", 5400),
    (" 1h30m ", 5400),
    ("1H30M", 5400),
    ("90s", 90),
    ("2h", 7200),
    ("0m", 0),
    ("1m30s", 90),
    ("1h30m15s", 5415),
    ("1h15s", 3615),
    ("120m", 7200),
    ("1 hour 30 minutes", 5400),
    ("2 hours", 7200),
    ("1hr 5min", 3900),
    ("2hrs", 7200),
    ("10 mins", 600),
    ("1 minute", 60),
    ("30 sec", 30),
    ("30secs", 30),
    ("1 second", 1),
    ("45 seconds", 45),
    ("1:30", 5400),
    ("0:45", 2700),
    ("01:30", 5400),
    ("1:30:15", 5415),
    ("0:00:59", 59),
    ("10:00", 36_000),
    ("744h", 31 * 86_400),
    ("744:00", 31 * 86_400),
  ])
  func aDurationIsReadInSeconds(text: String, seconds: Int) throws {
    #expect(try DurationText.parse(text) == seconds)
  }

  @Test(arguments: ["-5m", "-1h30m", " -5m", "-1:30", "-0m"])
  func aNegativeDurationIsRefusedAsNegative(text: String) {
    expectInputError(mentioning: ["negative", "'\(text)'"]) { try DurationText.parse(text) }
  }

  @Test(arguments: ["90", "0", " 45 "])
  func aNumberWithoutAUnitIsRefusedSuggestingOne(text: String) {
    let digits = text.filter { $0 != " " }
    expectInputError(mentioning: ["'\(text)'", "no unit", "'\(digits)m'", "'\(digits)s'"]) {
      try DurationText.parse(text)
    }
  }

  @Test(arguments: ["", "   ", "\t"])
  func anEmptyDurationIsRefused(text: String) {
    expectInputError(mentioning: ["Empty duration"]) { try DurationText.parse(text) }
  }

  @Test(arguments: [
    "1:75", "1:60", "1:30:60", "1:5", "1:", ":30", "1:30:", "1::30", "1:30:15:00", "1234:00",
    "abc", "m", "h30m", "30m1h", "1s1m", "1m1m", "1h1h", "1h30", "1.5h", "1,5h",
    "1d", "2w", "1h-30m", "+5m", "5mm", "1 h x", "1234567s", "٥m", "1:3a",
  ])
  func aMalformedDurationIsRefusedNamingIt(text: String) {
    expectInputError(mentioning: ["'\(text)'"]) { try DurationText.parse(text) }
  }

  @Test(arguments: ["1 30m", "1 0m", "2 h 3 0 m", "1h 3 0m", "4 5 s"])
  func digitsSplitBySpacesAreRefusedNotJoined(text: String) {
    // '1 30m' is not 130 minutes: a space may only separate a number from its unit, or one
    // number-unit pair from the next.
    expectInputError(mentioning: ["Cannot read duration '\(text)'"]) {
      try DurationText.parse(text)
    }
  }

  @Test(arguments: ["745h", "744h1s", "44641m", "999999m", "745:00", "999:59:59", "999999h"])
  func aDurationLongerThanThirtyOneDaysIsRefused(text: String) {
    expectInputError(mentioning: ["'\(text)'", "longer than 31 days"]) {
      try DurationText.parse(text)
    }
  }

  @Test func theLimitIsThirtyOneDays() {
    #expect(DurationText.maximumSeconds == 2_678_400)
  }

  // MARK: - Formatting

  @Test(arguments: [
    (5400, "1h30m"),
    (0, "0m"),
    (90, "1m30s"),
    (1, "1s"),
    (59, "59s"),
    (60, "1m"),
    (2700, "45m"),
    (3600, "1h"),
    (3601, "1h1s"),
    (5415, "1h30m15s"),
    (86_400, "24h"),
    (2_678_400, "744h"),
  ])
  func aDurationIsWrittenInHoursMinutesAndSeconds(seconds: Int, text: String) {
    #expect(DurationText.format(seconds) == text)
  }

  @Test(arguments: [0, 1, 59, 60, 61, 90, 2700, 3599, 3600, 5400, 5415, 86_399, 2_678_400])
  func aWrittenDurationReadsBackUnchanged(seconds: Int) throws {
    #expect(try DurationText.parse(DurationText.format(seconds)) == seconds)
  }
}
