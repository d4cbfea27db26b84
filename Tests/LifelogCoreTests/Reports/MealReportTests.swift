import LifelogCore
import LifelogTestSupport
import Testing

@Suite struct MealReportTests {
  let sample: SampleReports
  let october: MealReport

  init() throws {
    sample = try SampleReports()
    october = try sample.meals("2026-10-19", "2026-10-27")
  }

  @Test func everyDayOfTheRangeIsListedInOrderEvenWithoutMeals() throws {
    #expect(october.days.map(\.date.description) == (19...27).map { "2026-10-\($0)" })
    let empty = try october.day("2026-10-21")
    #expect(empty.meals.isEmpty)
    #expect(empty.overnightGapMinutes == nil && empty.longestGapMinutes == nil && !empty.isOnRhythm)
  }

  /// Over the whole calendar (some three million days) the diary holds only the days that have
  /// meals and makes the others when read: each day, by position or walked in order, is the day
  /// a short range gives, overnight gaps included, and the summary still counts every day.
  @Test func theWholeCalendarHoldsOnlyTheDaysWithMeals() throws {
    let whole = try sample.meals("1900-01-01", "9999-12-31")
    let year = try sample.meals("2026-01-01", "2026-12-31")
    let fromTuesday = try sample.meals("2026-10-20", "2026-10-27")  // a meal the day before
    let dayCount = whole.range.dayCount
    #expect(whole.days.count == dayCount && whole.summary.days == dayCount)
    #expect(whole.days.withMeals.count == year.days.withMeals.count)
    #expect(whole.days.withMeals.count == whole.summary.daysWithMeals)
    #expect(whole.summary.daysWithoutMeals == dayCount - whole.summary.daysWithMeals)
    let figures = { (summary: MealSummary) in
      [
        summary.meals, summary.gapCount, summary.medianGapMinutes, summary.averageGapMinutes,
        summary.longestGapMinutes, summary.flaggedGaps, summary.typicalFirstMealMinute,
        summary.typicalLastMealMinute, summary.daysOnRhythm, summary.daysWithMeals,
      ]
    }
    #expect(figures(whole.summary) == figures(year.summary))
    #expect(whole.summary.longestGapDate == year.summary.longestGapDate)
    for short in [year, fromTuesday] {
      for day in short.days {
        let position = try #require(whole.range.index(of: day.date))
        #expect(
          Self.describe(whole.days[position], whole) == Self.describe(day, short), "\(day.date)")
      }
    }
    var walked = 0
    var walkedWithMeals: [String] = []
    for day in whole.days {
      #expect(day.date == whole.days.date(at: walked))
      walked += 1
      if !day.meals.isEmpty { walkedWithMeals.append(Self.describe(day, whole)) }
    }
    #expect(walked == dayCount)
    #expect(walkedWithMeals == whole.days.withMeals.map { Self.describe($0, whole) })
    #expect(whole.days.last?.date.description == "9999-12-31")
  }

  /// A day's meals (of `report`), gaps and overnight gap in one string, to compare days of two
  /// reports (whose entries are numbered differently).
  static func describe(_ day: MealDay, _ report: MealReport) -> String {
    let meals = day.meals.map {
      "\($0.time) \(report.activityName(of: $0)) \($0.minuteOfDay) \($0.gapMinutes as Int?) \($0.isFlagged) \($0.isAway)"
    }
    return
      "\(day.date) \(meals) \(day.overnightGapMinutes as Int?) \(day.longestGapMinutes as Int?) \(day.flaggedGaps)"
  }

  @Test func gapsAreMinutesSinceThePreviousMealOfTheDay() throws {
    let monday = try october.day("2026-10-19")
    #expect(
      monday.meals.map { october.entry(of: $0).activityName } == [
        "breakfast", "snack", "lunch", "snack", "dinner",
      ])
    #expect(monday.meals.map(\.gapMinutes) == [nil, 150, 180, 180, 180])
    // Exactly three hours is not over three hours.
    #expect(monday.flaggedGaps.isEmpty && monday.isOnRhythm)
    #expect(monday.longestGapMinutes == 180)
  }

  @Test func gapsOverTheLimitAreFlaggedWithTheirMinutesAndEnds() throws {
    let tuesday = try october.day("2026-10-20")
    #expect(tuesday.meals.map(\.gapMinutes) == [nil, 270, 150, 270, 360])
    #expect(tuesday.meals.map(\.isFlagged) == [false, true, false, true, true])
    #expect(tuesday.flaggedGaps.map(\.minutes) == [270, 270, 360])
    #expect(tuesday.flaggedGaps.map(\.mealIndex) == [1, 3, 4])
    #expect(tuesday.flaggedGaps[2].from == (try time("2026-10-20T19:30:00+02:00")))
    #expect(tuesday.flaggedGaps[2].to == (try time("2026-10-21T01:30:00+02:00")))
    #expect(!tuesday.isOnRhythm)
  }

  @Test func aOneThirtySnackBelongsToTheDayBefore() throws {
    let tuesday = try october.day("2026-10-20")
    #expect(tuesday.lastMeal.map { october.entry(of: $0).note } == "crackers, \"couldn't sleep\"")
    #expect(tuesday.lastMeal?.minuteOfDay == 21 * 60 + 30)
    let saturday = try october.day("2026-10-24")
    #expect(saturday.lastMeal?.time == (try time("2026-10-25T01:30:00+02:00")))
  }

  @Test func theOvernightGapIsApartAndNeverFlagged() throws {
    let tuesday = try october.day("2026-10-20")
    #expect(tuesday.overnightGapMinutes == 13 * 60)
    #expect(tuesday.meals[0].gapMinutes == nil && !tuesday.meals[0].isFlagged)
    // The day after a day without meals has no overnight gap.
    #expect(try october.day("2026-10-22").overnightGapMinutes == nil)
  }

  @Test func theFirstDayOfTheRangeGetsItsOvernightGapFromTheDayBefore() throws {
    let report = try sample.meals("2026-10-20", "2026-10-20")
    #expect(report.days[0].overnightGapMinutes == 13 * 60)
  }

  @Test func gapsAcrossTheAutumnClockChangeAreRealElapsedTime() throws {
    // 01:30 at +02:00 to 08:00 at +01:00: 6h30m on the clock, 7h30m lived.
    #expect(try october.day("2026-10-25").overnightGapMinutes == 7 * 60 + 30)
    let sunday = try october.day("2026-10-25")
    #expect(sunday.meals.map(\.gapMinutes) == [nil, 270, 150, 180])
    #expect(sunday.meals.map(\.minuteOfDay) == [240, 510, 660, 840])
  }

  @Test func gapsAcrossTheSpringClockChangeAreRealElapsedTime() throws {
    let march = try sample.meals("2026-03-28", "2026-03-29")
    let saturday = try march.day("2026-03-28")
    #expect(saturday.meals.map(\.gapMinutes) == [nil, 300, 360, 390])
    #expect(saturday.flaggedGaps.count == 3)
    // 01:30 at +01:00 to 09:00 at +02:00: 7h30m on the clock, 6h30m lived.
    let sunday = try march.day("2026-03-29")
    #expect(sunday.overnightGapMinutes == 6 * 60 + 30)
    #expect(sunday.meals.map(\.gapMinutes) == [nil, 180, 150, 210])
    #expect(sunday.meals.map(\.time.local.hour) == [9, 12, 14, 18])
  }

  @Test func aTravelDayShowsLoggedClocksAndCountsTheRealGap() throws {
    let thursday = try october.day("2026-10-22")
    #expect(
      thursday.meals.map(\.time.local.timeDescription) == ["06:30", "09:00", "12:00", "18:30"])
    #expect(thursday.meals.map(\.isAway) == [false, false, true, true])
    // 09:00 at +02:00 to 12:00 at -05:00 is ten hours, not three.
    #expect(thursday.meals.map(\.gapMinutes) == [nil, 150, 600, 390])
    #expect(thursday.flaggedGaps.map(\.minutes) == [600, 390])
    let friday = try october.day("2026-10-23")
    #expect(friday.isOnRhythm && friday.meals.allSatisfy(\.isAway))
    #expect(friday.overnightGapMinutes == 12 * 60 + 30)
  }

  @Test func theSummaryCoversTheRange() {
    let summary = october.summary
    #expect(summary.days == 9 && summary.daysWithMeals == 8 && summary.daysWithoutMeals == 1)
    #expect(summary.meals == 37)
    #expect(summary.mealsPerDay == 37.0 / 9.0)
    #expect(summary.gapCount == 37 - 8)
    #expect(summary.medianGapMinutes == 180)
    #expect(summary.averageGapMinutes == 222)
    #expect(summary.longestGapMinutes == 600)
    #expect(summary.longestGapDate?.description == "2026-10-22")
    #expect(summary.flaggedGaps == 10)
    #expect(summary.daysOnRhythm == 3)
    // First meals 07:30 08:00 06:30 07:00 10:00 08:00 07:00 07:30: median 07:30.
    #expect(summary.typicalFirstMealMinute.map(october.settings.clockMinute) == 7 * 60 + 30)
    // Last meals, counted from 04:00 so 01:30 is late, not early: median 18:45.
    #expect(summary.typicalLastMealMinute.map(october.settings.clockMinute) == 18 * 60 + 45)
  }

  @Test func theMealGapLimitComesFromTheSettings() throws {
    let strict = try sample.meals(
      "2026-10-19", "2026-10-19", settings: ReportSettings(mealGapHours: 2.5))
    #expect(strict.days[0].flaggedGaps.map(\.minutes) == [180, 180, 180])
    let lenient = try sample.meals(
      "2026-10-20", "2026-10-20", settings: ReportSettings(mealGapHours: 6))
    #expect(lenient.days[0].flaggedGaps.isEmpty)
  }

  @Test func dayStartsAtDecidesWhereTheNightSnackGoes() throws {
    let midnight = try sample.meals(
      "2026-10-20", "2026-10-21", settings: ReportSettings(dayStartsAtMinutes: 0))
    #expect(midnight.days.map(\.meals.count) == [4, 1])
    #expect(midnight.days[1].overnightGapMinutes == 360)
    #expect(midnight.days[1].meals[0].minuteOfDay == 90)
  }

  @Test func theOffsetsThatOccurAreListedWithTheTravel() {
    let offsets = october.offsets.map { ($0.offsetMinutes, $0.entries, $0.awayEntries) }
    #expect(offsets.map(\.0) == [120, -300, 60])
    #expect(offsets.map(\.2) == [0, 9, 0])
    #expect(october.offsets[1].firstDay.description == "2026-10-22")
    #expect(october.offsets[1].lastDay.description == "2026-10-23")
  }
}
