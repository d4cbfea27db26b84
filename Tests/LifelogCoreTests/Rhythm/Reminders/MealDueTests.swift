import LifelogCore
import LifelogTestSupport
import Testing

/// `MealDue` follows the meal report's rules: days from `dayStartsAt` on the logged clock, gaps
/// in real elapsed time (DST changes and travel included).
@Suite struct MealDueTests {
  let warsaw = SystemTimeZone(identifier: "Europe/Warsaw")
  let settings = ReportSettings()  // 3 h gap, days start at 04:00

  func time(_ iso: String) -> LoggedTime {
    // The offset written in the string is the one the meal was logged at.
    (try? TimeParser(now: 0, zone: FixedOffsetZone(seconds: 0)).parseTime(iso))
      ?? LoggedTime(instant: 0, offsetMinutes: 0)
  }

  func instant(_ iso: String) -> Int64 { TestTime.instant(iso) }

  @Test func theNextMealIsDueTheGapAfterTheLastOne() {
    let due = MealDue(
      lastMeal: time("2026-12-02T12:00:00+01:00"), now: instant("2026-12-02T14:30:00+01:00"),
      settings: settings,
      zone: warsaw)
    #expect(due.dueAt == instant("2026-12-02T15:00:00+01:00"))
    #expect(due.sinceMinutes == 150)
    #expect(due.overdueMinutes == 0)
    #expect(!due.isFirstOfDay)
    let late = MealDue(
      lastMeal: time("2026-12-02T12:00:00+01:00"), now: instant("2026-12-02T15:25:59+01:00"),
      settings: settings,
      zone: warsaw)
    #expect(late.overdueMinutes == 25)
  }

  @Test func beforeTheDaysFirstMealItIsDueTheGapAfterTheDayBegan() {
    // Dinner at 19:00 the day before; at 06:00 the report day (from 04:00) has no meal yet.
    let due = MealDue(
      lastMeal: time("2026-12-01T19:00:00+01:00"), now: instant("2026-12-02T06:00:00+01:00"),
      settings: settings,
      zone: warsaw)
    #expect(due.isFirstOfDay)
    #expect(due.dayStartedAt == instant("2026-12-02T04:00:00+01:00"))
    #expect(due.dueAt == instant("2026-12-02T07:00:00+01:00"))
    // A 01:30 snack still belongs to the day before (days start at 04:00) but moves the due time.
    let snack = MealDue(
      lastMeal: time("2026-12-02T03:30:00+01:00"), now: instant("2026-12-02T05:00:00+01:00"),
      settings: settings,
      zone: warsaw)
    #expect(snack.isFirstOfDay)
    #expect(snack.dueAt == instant("2026-12-02T07:00:00+01:00"))
    let lateSnack = MealDue(
      lastMeal: time("2026-12-02T03:50:00+01:00"), now: instant("2026-12-02T05:00:00+01:00"),
      settings: ReportSettings(mealGapHours: 4), zone: warsaw)
    #expect(lateSnack.dueAt == instant("2026-12-02T08:00:00+01:00"))
  }

  @Test func withNoMealEverNothingIsDue() {
    let due = MealDue(
      lastMeal: nil, now: instant("2026-12-02T14:30:00+01:00"), settings: settings, zone: warsaw)
    #expect(due.dueAt == nil && due.sinceMinutes == nil && due.overdueMinutes == 0)
  }

  @Test func whenTheClocksGoBackTheGapIsRealTimeNotWallClock() {
    // 2026-10-25 in Warsaw: 03:00 CEST becomes 02:00 CET. A meal at 01:30 CEST is due 3 real
    // hours later, 03:30 CET: the wall clock moved only 2 hours.
    let due = MealDue(
      lastMeal: time("2026-10-25T01:30:00+02:00"), now: instant("2026-10-25T03:00:00+01:00"),
      settings: settings,
      zone: warsaw)
    #expect(due.dueAt == instant("2026-10-25T03:30:00+01:00"))
    #expect(due.sinceMinutes == 150)
    #expect(!due.isFirstOfDay)  // before 04:00: still the day of the meal
  }

  @Test func whenTheClocksGoForwardTheGapIsRealTimeNotWallClock() {
    // 2026-03-29: 02:00 CET becomes 03:00 CEST. 01:00 CET + 3 h is 05:00 CEST on the wall.
    let due = MealDue(
      lastMeal: time("2026-03-29T01:00:00+01:00"), now: instant("2026-03-29T03:30:00+02:00"),
      settings: settings,
      zone: warsaw)
    #expect(due.dueAt == instant("2026-03-29T05:00:00+02:00"))
    #expect(due.sinceMinutes == 90)
  }

  @Test func aDayWhoseStartTheClocksSkippedBeginsAtTheJump() {
    // Days starting at 02:30 on 2026-03-29, a time Warsaw's clocks skip: the day begins at 03:00.
    let early = ReportSettings(dayStartsAtMinutes: 150)
    let due = MealDue(
      lastMeal: time("2026-03-28T20:00:00+01:00"), now: instant("2026-03-29T04:00:00+02:00"),
      settings: early,
      zone: warsaw)
    #expect(due.dayStartedAt == instant("2026-03-29T03:00:00+02:00"))
    #expect(due.dueAt == instant("2026-03-29T06:00:00+02:00"))
  }

  @Test func onATripDaysFollowTheMealsClockAndGapsFollowRealTime() {
    // Lunch logged at 12:00 in New York; read in Warsaw, it is due 3 real hours later (21:00 in
    // Warsaw), not at 15:00 on either wall clock.
    let due = MealDue(
      lastMeal: time("2026-12-02T12:00:00-05:00"), now: instant("2026-12-02T19:30:00+01:00"),
      settings: settings,
      zone: warsaw)
    #expect(due.dueAt == instant("2026-12-02T21:00:00+01:00"))
    #expect(!due.isFirstOfDay)
    // A New York dinner at 22:00 is on Dec 2 by its own clock; at 09:00 in Warsaw on Dec 3 the
    // day has no meal yet, and the first was due by 07:00 Warsaw time.
    let home = MealDue(
      lastMeal: time("2026-12-02T22:00:00-05:00"), now: instant("2026-12-03T09:00:00+01:00"),
      settings: settings,
      zone: warsaw)
    #expect(home.isFirstOfDay)
    #expect(home.dueAt == instant("2026-12-03T07:00:00+01:00"))
    #expect(home.overdueMinutes == 120)
  }

  @Test func aHostileGapSettingIsClampedInsteadOfOverflowing() {
    let huge = ReportSettings(mealGapHours: 1e300)
    let due = MealDue(
      lastMeal: time("2026-12-02T12:00:00+01:00"), now: instant("2026-12-02T14:30:00+01:00"),
      settings: huge,
      zone: warsaw)
    #expect(due.gapSeconds == 24 * 3600)
  }
}

@Suite struct QuietHoursAndReminderTests {
  @Test func quietHoursMayPassMidnightAndReadBackCanonically() throws {
    let night = try QuietHours(parsing: "22:00-7:00")
    #expect(night.description == "22:00-07:00")
    #expect(night.contains(minuteOfDay: 22 * 60) && night.contains(minuteOfDay: 3 * 60))
    #expect(!night.contains(minuteOfDay: 7 * 60) && !night.contains(minuteOfDay: 12 * 60))
    let lunch = try QuietHours(parsing: "12:00-13:00")
    #expect(lunch.contains(minuteOfDay: 12 * 60 + 30) && !lunch.contains(minuteOfDay: 13 * 60))
    #expect(try QuietHours(parsing: "off") == .off)
    for bad in ["22:00", "22:00-22:00", "25:00-07:00", "22-07", "22:00-07:00-08:00", "x"] {
      #expect(throws: InputError.self) { try QuietHours(parsing: bad) }
    }
  }

  @Test func aSleepWithoutDurationRunsUntilAMealOrTwelveHours() {
    let sleep = LoggedTime(instant: 1000, offsetMinutes: 0)
    #expect(Reminder.isRunning(sleep: sleep, seconds: nil, now: 1000 + 3600, lastMeal: nil))
    #expect(!Reminder.isRunning(sleep: sleep, seconds: nil, now: 1000 + 13 * 3600, lastMeal: nil))
    #expect(
      !Reminder.isRunning(
        sleep: sleep, seconds: nil, now: 1000 + 3600,
        lastMeal: LoggedTime(instant: 2000, offsetMinutes: 0)))
    #expect(
      Reminder.isRunning(sleep: sleep, seconds: 8 * 3600, now: 1000 + 7 * 3600, lastMeal: nil))
    #expect(
      !Reminder.isRunning(sleep: sleep, seconds: 8 * 3600, now: 1000 + 8 * 3600, lastMeal: nil))
  }
}
