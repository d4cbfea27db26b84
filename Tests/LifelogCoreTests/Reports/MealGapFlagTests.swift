import LifelogCore
import Testing

/// The rule a meal gap is flagged against: shorter than `mealGapMinHours` or longer than
/// `mealGapHours`, graded far when it misses by an hour or more.
@Suite struct MealGapFlagTests {
  let settings = ReportSettings()  // 2h to 3h

  @Test(arguments: [
    (0, MealGapFlag.farTooShort), (60, .farTooShort), (61, .slightlyShort), (119, .slightlyShort),
    (181, .slightlyLong), (239, .slightlyLong), (240, .farTooLong), (600, .farTooLong),
  ])
  func aGapOutsideTheRuleIsFlaggedAndGraded(minutes: Int, flag: MealGapFlag) {
    #expect(settings.gapFlag(minutes: minutes) == flag)
  }

  @Test(arguments: [120, 150, 180])
  func aGapWithinTheRuleOrAtEitherLimitIsNotFlagged(minutes: Int) {
    #expect(settings.gapFlag(minutes: minutes) == nil)
  }

  @Test func zeroTurnsTheShortEndOffAndAMinimumAboveTheMaximumIsHeldAtIt() {
    #expect(ReportSettings(mealGapMinHours: 0).gapFlag(minutes: 0) == nil)
    let crossed = ReportSettings(mealGapHours: 3, mealGapMinHours: 5)
    #expect(crossed.mealGapMinMinutes == 180)
    #expect(crossed.gapFlag(minutes: 179) == .slightlyShort)
    #expect(crossed.gapFlag(minutes: 180) == nil)
  }

  @Test func theSettingsAreReadAndCheckedWhenStored() throws {
    let read = ReportSettings(values: [.mealGapMinHours: "1.5"])
    #expect(read.mealGapMinHours == 1.5)
    // A synced value out of range falls back to the default.
    #expect(ReportSettings(values: [.mealGapMinHours: "-1"]).mealGapMinHours == 2)
    #expect(ReportSettings(values: [.mealGapMinHours: "inf"]).mealGapMinHours == 2)
    #expect(try Setting.mealGapMinHours.validated("0") == "0")
    #expect(throws: InputError.self) { try Setting.mealGapMinHours.validated("25") }
  }
}
