import LifelogCore
import LifelogTestSupport
import Testing

@Suite struct ReportDaysTests {
  let settings = ReportSettings()

  @Test(arguments: [
    ("2026-10-20T01:30:00+02:00", "2026-10-19", 21 * 60 + 30),
    ("2026-10-20T03:59:59+02:00", "2026-10-19", 23 * 60 + 59),
    ("2026-10-20T04:00:00+02:00", "2026-10-20", 0),
    ("2026-10-20T23:59:00-05:00", "2026-10-20", 19 * 60 + 59),
    ("1969-12-31T02:00:00+00:00", "1969-12-30", 22 * 60),
  ])
  func aTimeBelongsToTheDayOfItsLoggedClock(iso: String, expected: String, minute: Int) throws {
    let logged = try time(iso)
    #expect(settings.day(of: logged).description == expected)
    #expect(settings.minuteOfDay(logged) == minute)
  }

  @Test func settingsReadTheirStoredText() {
    let read = ReportSettings(values: [
      .mealGapHours: "2.5", .dayStartsAt: "05:30", .weekStartsOn: "sunday", .name: "Ada",
    ])
    #expect(
      read
        == ReportSettings(mealGapHours: 2.5, dayStartsAtMinutes: 330, weekStartsOn: 0, name: "Ada"))
    #expect(ReportSettings(values: [:]) == ReportSettings())
    #expect(read.clockMinute(ofMinuteOfDay: 1200) == 90)
  }

  @Test func rangesAreInclusiveAndChecked() throws {
    let range = try ReportRange(from: try day("2026-10-30"), to: try day("2026-11-02"))
    #expect(range.dayCount == 4)
    #expect(
      range.days.map(\.description) == ["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02"])
    let last = try day("2026-11-02")
    let after = try day("2026-11-03")
    #expect(range.index(of: last) == 3 && range.index(of: after) == nil)
    #expect(throws: InputError.self) {
      try ReportRange(from: try day("2026-11-02"), to: try day("2026-11-01"))
    }
    #expect(ReportRange.week(endingOn: try day("2026-10-27")).from.description == "2026-10-21")
  }

  @Test(arguments: [
    (Target.Period.week, 1, "2026-10-26", "2026-11-01"),
    (.week, 0, "2026-10-25", "2026-10-31"),
    (.week, 6, "2026-10-24", "2026-10-30"),
    (.month, 1, "2026-10-01", "2026-10-31"),
    (.day, 1, "2026-10-28", "2026-10-28"),
  ])
  func periodsStartWhereTheSettingsSay(
    length: Target.Period, weekStartsOn: Int, start: String, end: String
  ) throws {
    let range = try ReportRange(from: try day("2026-10-28"), to: try day("2026-10-28"))
    let period = try #require(
      ReportPeriod.covering(range, by: length, weekStartsOn: weekStartsOn).first)
    #expect(period.start.description == start && period.end.description == end)
    #expect(period.dayCount == 1)
  }

  @Test func theLogKeepsEntriesByTheirOwnDayWhateverTheOffset() throws {
    let rows: [ReportSampleLog.Row] = [
      ("snack", "2026-10-19T03:00:00+14:00", "Kiritimati, before the day starts", nil, nil),
      ("snack", "2026-10-19T05:00:00+14:00", "Kiritimati, first", nil, nil),
      ("snack", "2026-10-27T23:00:00-12:00", "Baker Island, last", nil, nil),
      ("snack", "2026-10-28T04:00:00-12:00", "the day after", nil, nil),
    ]
    let store = try ReportSampleLog.build(at: ":memory:", rows: rows)
    let range = try ReportRange(from: try day("2026-10-19"), to: try day("2026-10-27"))
    let log = try ReportLog.read(from: store, range: range, settings: ReportSettings())
    #expect(log.entries.map(\.note) == ["Kiritimati, first", "Baker Island, last"])
    #expect(log.mealBefore?.note == "Kiritimati, before the day starts")
  }

  @Test func entriesGivenOutOfOrderAreSorted() throws {
    let store = try ReportSampleLog.build(at: ":memory:", rows: ReportSampleLog.october)
    let entries = try store.entries(EntryQuery())
    let range = try ReportRange(from: try day("2026-10-19"), to: try day("2026-10-27"))
    let sorted = ReportLog(range: range, settings: ReportSettings(), entries: entries)
    let shuffled = ReportLog(range: range, settings: ReportSettings(), entries: entries.reversed())
    #expect(sorted.entries.map(\.id) == shuffled.entries.map(\.id))
    #expect(sorted.entries.count == ReportSampleLog.october.count)
  }
}
