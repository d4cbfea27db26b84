import LifelogCore
import Testing

@Suite struct LocalDateTimeTests {
  @Test(arguments: [
    (Int64(1_796_209_200), 3600, "2026-12-02", 12, 0, 0),
    (1_796_209_200, 0, "2026-12-02", 11, 0, 0),
    (1_796_209_200, -5 * 3600, "2026-12-02", 6, 0, 0),
    (1_796_209_200, 14 * 3600, "2026-12-03", 1, 0, 0),
    (1_796_209_200, -12 * 3600, "2026-12-01", 23, 0, 0),
    (1_796_209_245, 19_800, "2026-12-02", 16, 30, 45),
    (0, 0, "1970-01-01", 0, 0, 0),
    (-1, 0, "1969-12-31", 23, 59, 59),
    (-86_400, 0, "1969-12-31", 0, 0, 0),
    (-86_401, 0, "1969-12-30", 23, 59, 59),
    (0, -3600, "1969-12-31", 23, 0, 0),
    (951_782_399, 0, "2000-02-28", 23, 59, 59),
    (951_782_400, 0, "2000-02-29", 0, 0, 0),
  ])
  func anInstantShowsItsWallClockTime(
    instant: Int64, offset: Int, date: String, hour: Int, minute: Int, second: Int
  ) {
    let local = LocalDateTime(instant: instant, offsetSeconds: offset)
    #expect(local.date.description == date)
    #expect(local.hour == hour)
    #expect(local.minute == minute)
    #expect(local.second == second)
    #expect(local.secondsAsIfUTC == instant + Int64(offset))
  }

  @Test func aWallClockReadingCountsSecondsAsIfInUTC() throws {
    let date = try #require(CivilDate(year: 2026, month: 12, day: 1))
    #expect(LocalDateTime(date: date, hour: 8, minute: 15).secondsAsIfUTC == 1_796_112_900)
    #expect(
      LocalDateTime(date: date, hour: 8, minute: 15, second: 30).secondsAsIfUTC
        == 1_796_112_930)
  }

  @Test func theTimeShowsSecondsOnlyWhenThereAreSome() throws {
    let date = try #require(CivilDate(year: 2026, month: 12, day: 1))
    #expect(LocalDateTime(date: date, hour: 8, minute: 5).timeDescription == "08:05")
    #expect(LocalDateTime(date: date, hour: 0, minute: 0).timeDescription == "00:00")
    #expect(
      LocalDateTime(date: date, hour: 23, minute: 59, second: 7).timeDescription
        == "23:59:07")
  }
}

@Suite struct LoggedTimeTests {
  @Test(arguments: [
    (Int64(1_796_109_300), 60, "2026-12-01T08:15:00+01:00"),
    (1_796_112_900, 0, "2026-12-01T08:15:00+00:00"),
    (1_796_130_900, -300, "2026-12-01T08:15:00-05:00"),
    (1_796_092_200, 345, "2026-12-01T08:15:00+05:45"),
    (1_796_147_100, -570, "2026-12-01T08:15:00-09:30"),
    (1_796_112_930, -30, "2026-12-01T07:45:30-00:30"),
    (0, 0, "1970-01-01T00:00:00+00:00"),
    (-1, 60, "1970-01-01T00:59:59+01:00"),
  ])
  func aLoggedTimeIsWrittenInISO8601WithItsOffset(instant: Int64, offset: Int, text: String) {
    #expect(LoggedTime(instant: instant, offsetMinutes: offset).iso8601 == text)
  }

  @Test(arguments: [
    (0, "+00:00"), (60, "+01:00"), (120, "+02:00"), (-300, "-05:00"), (-240, "-04:00"),
    (330, "+05:30"), (345, "+05:45"), (-30, "-00:30"), (840, "+14:00"), (-720, "-12:00"),
  ])
  func anOffsetIsWrittenWithSignHoursAndMinutes(minutes: Int, text: String) {
    #expect(LoggedTime.offsetDescription(minutes: minutes) == text)
  }

  @Test func theSameInstantShowsTheWallClockWhereItWasLogged() {
    let warsaw = LoggedTime(instant: 1_796_112_000, offsetMinutes: 60)
    let newYork = LoggedTime(instant: 1_796_112_000, offsetMinutes: -300)
    #expect(warsaw.local.hour == 9)
    #expect(newYork.local.hour == 3)
    #expect(warsaw != newYork)
  }
}
