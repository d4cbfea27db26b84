import LifelogCore
import Testing

/// The ranges values are held to wherever they enter (a flag, an import, a synced row), and that
/// reading a stored value out of range falls back instead of trapping (docs/sync-protocol.md §3).
@Suite struct ValueRangeTests {
  @Test(arguments: [
    "100000000000000000000 min/week", "10000001 times/day", "166667 h/week", "20000000 km/month",
  ])
  func aTargetBeyondTheLargestAmountIsRefused(text: String) {
    #expect(throws: InputError.self) { try Target(parsing: text) }
  }

  @Test(arguments: [
    ("10000000 km/month", "10000000 km/month"), ("2.5h/week", "150 min/week"),
    ("0.5/day", "0.5 times/day"),
  ])
  func aTargetUpToTheLargestAmountIsRead(text: String, canonical: String) throws {
    #expect(try Target(parsing: text).description == canonical)
  }

  @Test func aTargetMadeInCodeWithAHugeAmountStillDescribesItself() {
    #expect(Target(amount: 1e20, measure: .minutes, period: .week).description == "1e+20 min/week")
  }

  @Test(arguments: ["inf", "nan", "-1", "0", "0.4", "24.5", "1e300", "", "3h"])
  func aMealGapOutsideHalfAnHourToADayIsRefusedAndReadAsTheDefault(text: String) {
    #expect(throws: InputError.self) { try Setting.mealGapHours.validated(text) }
    #expect(Setting.mealGapHours.inForce(text) == nil)
    #expect(ReportSettings(values: [.mealGapHours: text]).mealGapHours == 3)
  }

  @Test func aValidStoredMealGapIsUsedInItsCanonicalForm() {
    #expect(Setting.mealGapHours.inForce("2.50") == "2.5")
    #expect(ReportSettings(values: [.mealGapHours: "24"]).mealGapHours == 24)
  }

  @Test func aNameWithAControlCharacterIsRefused() {
    #expect(throws: InputError.self) { try Setting.name.validated("Ada\u{1B}[2J") }
    #expect(Setting.name.inForce("Ada\u{1B}[2J") == nil)
    #expect(Setting.name.inForce("Ada Lovelace") == "Ada Lovelace")
  }

  @Test(arguments: ["1000000001", "1e300", "-1", "inf", "nan"])
  func aQuantityOutOfRangeIsRefused(text: String) {
    #expect(throws: InputError.self) { try EntryFields.quantity(text) }
  }

  @Test func storedDurationsAndQuantitiesOutOfRangeReadAsAbsent() {
    #expect(EntryFields.stored(duration: 2_678_400) == 2_678_400)
    #expect(EntryFields.stored(duration: 2_678_401) == nil)
    #expect(EntryFields.stored(duration: -1) == nil)
    #expect(EntryFields.stored(duration: Int64.max) == nil)
    #expect(EntryFields.stored(quantity: 1e9) == 1e9)
    #expect(EntryFields.stored(quantity: .infinity) == nil)
    #expect(EntryFields.stored(quantity: .nan) == nil)
    #expect(EntryFields.stored(quantity: -0.5) == nil)
  }
}
