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
}
