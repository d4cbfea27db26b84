import LifelogCore
import LifelogTestSupport
import Testing

@Suite struct ActivityStoreTests {
  let store: LogStore

  init() throws {
    store = try LogStore(path: ":memory:")
  }

  @Test func theSameNewActivityGetsTheSameIdOnEveryMachine() throws {
    let other = try LogStore(path: ":memory:")
    let here = try store.addActivity(named: "Green Tea", kind: .meal)
    let there = try other.addActivity(named: "green   tea", kind: .meal)
    #expect(here.id == there.id)
    #expect(here.name == "Green Tea")
    #expect(there.name == "green tea")
  }

  @Test func namesAreUniqueWhateverTheirCase() throws {
    let error = try #require(throws: InputError.self) {
      try store.addActivity(named: "BREAKFAST", kind: .meal)
    }
    #expect(error.message.contains("already exists"))
  }

  @Test func aRenamedActivityKeepsItsIdAndEntries() throws {
    let workout = try #require(try store.activity(named: "workout"))
    try store.add(NewEntry(activityID: workout.id, time: LoggedTime(instant: 0, offsetMinutes: 0)))
    let renamed = try store.renameActivity("workout", to: "gym")
    #expect(renamed.id == workout.id)
    #expect(try store.activity(named: "workout") == nil)
    #expect(try store.entries(EntryQuery()).map(\.activityName) == ["gym"])
    // The old name is free again; the new activity cannot take the renamed one's id.
    let again = try store.addActivity(named: "workout", kind: .exercise)
    #expect(again.id != workout.id)
    #expect(again.id == ActivityName.derivedID(for: "workout", attempt: 1))
  }

  @Test func renamingOntoAnotherActivitysNameIsRefused() throws {
    let error = try #require(throws: InputError.self) {
      try store.renameActivity("run", to: "Walk")
    }
    #expect(error.message.contains("already exists"))
    #expect(try store.activity(named: "run") != nil)
  }

  @Test func anUnknownNameSuggestsTheNearestKnownOnes() throws {
    let error = try #require(throws: InputError.self) {
      try store.requireActivity(named: "brekfast")
    }
    #expect(error.message.contains("did you mean 'breakfast'?"))
  }

  @Test func archivingHidesAnActivityFromSuggestions() throws {
    try store.updateActivity(named: "breakfast", archived: true)
    #expect(try store.activity(named: "breakfast")?.archived == true)
    let error = try #require(throws: InputError.self) {
      try store.requireActivity(named: "brekfast")
    }
    #expect(!error.message.contains("breakfast"))
  }

  @Test func targetsInAQuantityMustUseTheActivitysUnit() throws {
    let target = try Target(parsing: "10 km/week")
    #expect(throws: InputError.self) {
      try store.addActivity(named: "swim", kind: .exercise, target: target)
    }
    #expect(throws: InputError.self) {
      try store.addActivity(named: "swim", kind: .exercise, unit: "kcal", target: target)
    }
    let swim = try store.addActivity(named: "swim", kind: .exercise, unit: "km", target: target)
    #expect(try store.activity(named: "swim")?.target == swim.target)
  }

  @Test(arguments: [
    ("150 min/week", "150 min/week"), ("2.5h/week", "150 min/week"), ("3/day", "3 times/day"),
    ("3 times/day", "3 times/day"), ("10 km/w", "10 km/week"), ("1.5 l/day", "1.5 l/day"),
  ])
  func targetsReadInTheirUsualForms(text: String, canonical: String) throws {
    #expect(try Target(parsing: text).description == canonical)
  }

  @Test(arguments: ["150", "min/week", "-5 min/week", "150 min/fortnight", "0/day", "1 k m/day"])
  func malformedTargetsAreRefused(text: String) {
    #expect(throws: InputError.self) { try Target(parsing: text) }
  }

  @Test(arguments: ["", "   ", "--kind", String(repeating: "x", count: 65)])
  func badNamesAreRefused(name: String) {
    #expect(throws: InputError.self) { try store.addActivity(named: name, kind: .other) }
  }
}

@Suite struct SettingsStoreTests {
  @Test func unsetSettingsReadAsTheirDefaults() throws {
    let store = try LogStore(path: ":memory:")
    #expect(try store.value(of: .mealGapHours) == "3")
    #expect(try store.value(of: .dayStartsAt) == "04:00")
    #expect(try store.allSettings().allSatisfy(\.isDefault))
  }

  @Test(arguments: [
    (Setting.mealGapHours, "2.5", "2.5"), (.mealGapHours, "4.0", "4"),
    (.dayStartsAt, "5:00", "05:00"),
    (.dayStartsAt, "5am", "05:00"), (.weekStartsOn, "Sun", "sunday"), (.name, " Ada ", "Ada"),
  ])
  func valuesAreStoredInCanonicalForm(setting: Setting, text: String, stored: String) throws {
    let store = try LogStore(path: ":memory:")
    #expect(try store.set(setting, to: text) == stored)
    #expect(try store.value(of: setting) == stored)
  }

  @Test(arguments: [
    (Setting.mealGapHours, "0"), (.mealGapHours, "many"), (.mealGapHours, "25"),
    (.dayStartsAt, "25:00"),
    (.weekStartsOn, "someday"),
  ])
  func badValuesAreRefusedAndNothingIsStored(setting: Setting, text: String) throws {
    let store = try LogStore(path: ":memory:")
    #expect(throws: InputError.self) { try store.set(setting, to: text) }
    #expect(try store.allSettings().allSatisfy(\.isDefault))
  }

  @Test func aMistypedSettingNameSuggestsTheRightOne() {
    let error = try? #require(throws: InputError.self) { try Setting(named: "mealgap") }
    #expect(error?.message.contains("mealGapHours") == true)
  }
}
