import LifelogCore
import LifelogExchange
import Testing

/// An import run through the library outside any undo step records nothing, and leaves the order
/// of the steps an `add` keeps in its entry (schema v8) as it was.
@Suite struct ImportUndoOrderTests {
  let lunch = ActivityName.derivedID(for: "lunch")

  @discardableResult
  private func add(_ store: LogStore, _ note: String) throws -> Entry {
    try store.recordingUndoStep({ "add \($0.note ?? "")" }) {
      try store.add(
        NewEntry(
          activityID: lunch, time: LoggedTime(instant: 1_796_900_000, offsetMinutes: 60),
          note: note))
    }
  }

  @Test func anImportOutsideAStepLeavesTheOrderOfTheStepsAlone() throws {
    let harness = try ImportHarness()
    let store = harness.store
    let soup = try add(store, "soup")
    let path = try harness.write(
      "activity,at,note\nlunch,2026-12-01T12:00:00Z,imported\n", to: "i.csv")
    try harness.importFile(path, kind: .meal) { input in
      try ExchangeFormat.detect(path: path, input: input).records(from: input)
    }
    let salad = try add(store, "salad")
    let steps = try store.undoSteps(limit: 10)
    #expect(steps.map(\.description) == ["add salad", "add soup"])
    #expect(Set(steps.map(\.seq)).count == 2)
    #expect(try store.undoLastStep()?.description == "add salad")
    #expect(try store.entry(id: salad.id)?.deleted == true)
    #expect(try store.entry(id: soup.id)?.deleted == false)
  }
}
