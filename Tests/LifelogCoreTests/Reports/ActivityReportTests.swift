import LifelogCore
import LifelogTestSupport
import Testing

@Suite struct ActivityReportTests {
  let sample: SampleReports

  init() throws { sample = try SampleReports() }

  private func totals(_ report: ActivityReport, _ name: String) throws -> ActivityTotals {
    try #require(report.activities.first { $0.activity.name == name })
  }

  @Test func weeksStartOnTheSettingAndARangeCutsThemShort() throws {
    let report = try sample.activity("2026-10-19", "2026-10-27")
    #expect(
      report.periods.map { "\($0.start)…\($0.end) \($0.dayCount)" } == [
        "2026-10-19…2026-10-25 7", "2026-10-26…2026-11-01 2",
      ])
    #expect(report.periods.map(\.isPartial) == [false, true])
  }

  @Test func minutesAgainstAMinutesTargetSpreadOverTheDays() throws {
    let walk = try totals(try sample.activity("2026-10-19", "2026-10-27"), "walk")
    #expect(walk.periods.map(\.count) == [3, 1])
    #expect(walk.periods.map(\.durationSeconds) == [155 * 60, 40 * 60])
    #expect(walk.periods[0].targetAmount == 150)
    #expect(abs((walk.periods[1].targetAmount ?? 0) - 150 * 2 / 7) < 1e-9)
    #expect(walk.periods[0].percentReached.map { ($0 * 10).rounded() / 10 } == 103.3)
    #expect(walk.total.durationSeconds == 195 * 60 && walk.total.count == 4)
  }

  @Test func quantitiesAndCountsAgainstTheirTargets() throws {
    let report = try sample.activity("2026-10-19", "2026-10-25")
    let run = try totals(report, "run")
    #expect(run.total.quantity == 5 && run.total.quantityCount == 1)
    #expect(
      run.total.achieved == 5 && run.total.targetAmount == 10 && run.total.percentReached == 50)
    let vitamin = try totals(report, "vitamin d")
    #expect(vitamin.total.count == 4 && vitamin.total.targetAmount == 7)
  }

  @Test func byDayAndByMonth() throws {
    let daily = try sample.activity("2026-10-24", "2026-10-26", by: .day)
    #expect(daily.periods.count == 3)
    let vitamin = try totals(daily, "vitamin d")
    #expect(vitamin.periods.map(\.count) == [1, 0, 1])
    #expect(vitamin.periods.map(\.percentReached) == [100, 0, 100])
    let monthly = try sample.activity("2026-10-19", "2026-10-27", by: .month)
    #expect(monthly.periods.map(\.dayCount) == [9])
    #expect(monthly.periods[0].fullDayCount == 31)
  }

  @Test func anActivityWithATargetAndNoEntriesIsStillReported() throws {
    let report = try sample.activity("2026-10-28", "2026-10-30")
    let walk = try totals(report, "walk")
    #expect(walk.total.count == 0 && walk.total.percentReached == 0)
    #expect(!report.activities.contains { $0.activity.name == "breakfast" })
  }

  @Test func exerciseComesFirstAndMealsLast() throws {
    let names = try sample.activity("2026-10-19", "2026-10-27").activities.map(\.activity.name)
    #expect(
      names == ["run", "walk", "sleep", "vitamin d", "breakfast", "dinner", "lunch", "snack"])
  }

  @Test func sleepPerNightAcrossTheAutumnClockChange() throws {
    let report = try sample.activity("2026-10-19", "2026-10-27")
    let nights = Dictionary(uniqueKeysWithValues: report.nights.map { ($0.date.description, $0) })
    let change = try #require(nights["2026-10-24"])
    #expect(change.sleptSeconds == 8 * 3600 + 1800)
    #expect(change.bedtime?.iso8601 == "2026-10-24T23:30:00+02:00")
    #expect(change.wakeTime?.iso8601 == "2026-10-25T07:00:00+01:00")
    // A 02:00 start belongs to the night of the day before.
    #expect(nights["2026-10-20"]?.sleptSeconds == 5 * 3600 + 1800)
    #expect(nights["2026-10-21"]?.entries == 0)
    // Away from home, the night ends on the clock it was logged at.
    #expect(nights["2026-10-22"]?.wakeTime?.iso8601 == "2026-10-23T06:30:00-05:00")
    #expect(report.sleep.nightsLogged == 6 && report.sleep.nights == 9)
    #expect(
      report.sleep.averageSeconds == (27_000 + 19_800 + 28_800 + 30_600 + 28_800 + 25_200) / 6)
  }

  @Test func sleepAcrossTheSpringClockChange() throws {
    let report = try sample.activity("2026-03-28", "2026-03-29")
    #expect(report.nights[0].sleptSeconds == 6 * 3600)
    #expect(report.nights[0].wakeTime?.iso8601 == "2026-03-29T08:45:00+02:00")
  }

  /// Over the whole calendar (2,958,464 days) the report holds what it holds over a year.
  ///
  /// Periods and empty nights are made when read, and each activity keeps only the
  /// periods it has entries in. Held memory that grew with the range again would fail here.
  @Test(arguments: [Target.Period.day, .week, .month])
  func theWholeCalendarHoldsOnlyWhatHasEntries(grouping: Target.Period) throws {
    let whole = try sample.activity("1900-01-01", "9999-12-31", by: grouping)
    let year = try sample.activity("2026-01-01", "2026-12-31", by: grouping)
    #expect(whole.nights.count == 2_958_464)
    #expect(whole.nights.logged.map(\.date) == year.nights.logged.map(\.date))
    #expect(!whole.nights.logged.isEmpty)
    #expect(whole.sleep.nightsLogged == year.sleep.nightsLogged)
    #expect(whole.sleep.averageSeconds == year.sleep.averageSeconds)
    #expect(whole.activities.map(\.activity.name) == year.activities.map(\.activity.name))
    for (held, near) in zip(whole.activities, year.activities) {
      #expect(held.periods.heldCount == near.periods.heldCount, "\(held.activity.name)")
      #expect(held.periods.heldCount <= held.total.count, "\(held.activity.name)")
      #expect(held.total.count == near.total.count, "\(held.activity.name)")
      #expect(held.total.durationSeconds == near.total.durationSeconds)
    }
    // The first and last periods, made on the fly, are the calendar's own.
    let first = try #require(whole.periods.first)
    let last = try #require(whole.periods.last)
    #expect(first.firstDay.description == "1900-01-01")
    #expect(last.lastDay.description == "9999-12-31")
    #expect(whole.nights[whole.nights.count - 1].date.description == "9999-12-31")
  }

  /// The periods made from a day's position match the periods found by walking the range a
  /// period at a time (the way they were held before), for ranges starting on every weekday and
  /// in every month, of lengths around a week and a month, for every week start.
  @Test(arguments: [Target.Period.day, .week, .month])
  func periodsMadeOnTheFlyMatchThePeriodsWalked(length: Target.Period) throws {
    let origin = try day("2023-12-25")
    for weekStartsOn in 0..<7 {
      for startOffset in stride(from: 0, through: 800, by: 19) {
        for dayCount in [1, 2, 6, 7, 8, 13, 27, 29, 30, 31, 32, 61, 400] {
          let from = origin.adding(days: startOffset)
          let range = try ReportRange(from: from, to: from.adding(days: dayCount - 1))
          var walked: [String] = []
          var position: [Int] = []
          var next = range.from
          while next <= range.to {
            let start = ReportPeriod.start(of: next, by: length, weekStartsOn: weekStartsOn)
            var end = start
            while ReportPeriod.start(
              of: end.adding(days: 1), by: length, weekStartsOn: weekStartsOn)
              == start
            {
              end = end.adding(days: 1)
            }
            walked.append("\(start) \(end) \(max(start, range.from)) \(min(end, range.to))")
            while next <= min(end, range.to) {
              position.append(walked.count - 1)
              next = next.adding(days: 1)
            }
          }
          let made = ReportPeriods(range, by: length, weekStartsOn: weekStartsOn)
          #expect(
            made.map { "\($0.start) \($0.end) \($0.firstDay) \($0.lastDay)" } == walked,
            "\(range.from) +\(dayCount) \(length) \(weekStartsOn)")
          #expect((0..<dayCount).map { made.index(ofDay: $0) } == position)
          #expect(made.index(ofDay: dayCount) == nil && made.index(ofDay: -1) == nil)
        }
      }
    }
  }
}
