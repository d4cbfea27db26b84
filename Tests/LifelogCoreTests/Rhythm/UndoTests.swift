import LifelogCore
import LifelogTestSupport
import Testing

/// Undo in Core, on a real log file: what ``LogStore/recordingUndoStep(_:_:)`` records and what
/// ``LogStore/undoLastStep()`` puts back, and that a field changed since the step (by a write
/// outside any step, as a sync merge is) refuses the undo and leaves everything as it was.
@Suite struct UndoTests {
  let folder = TemporaryDirectory(prefix: "lifelog-undo")
  let store: LogStore
  let snack = ActivityName.derivedID(for: "snack")
  static let time = LoggedTime(instant: 1_764_633_600, offsetMinutes: 60)

  init() throws {
    store = try LogStore(path: folder.file("log.db"))
  }

  func add(_ note: String) throws -> Entry {
    try store.recordingUndoStep({ "add \($0.note ?? "")" }) {
      try store.add(NewEntry(activityID: snack, time: Self.time, note: note))
    }
  }

  func edit(_ id: String, note: String) throws -> Entry {
    try store.recordingUndoStep({ "edit \($0.note ?? "")" }) {
      var changes = EntryChanges()
      changes.note = .some(note)
      return try store.update(id: id, with: changes)
    }
  }

  @Test func undoingAnAddMarksTheEntryDeletedAndForgetsTheStep() throws {
    let entry = try add("apple")
    #expect(try store.undoSteps(limit: 10).map(\.description) == ["add apple"])
    let undone = try #require(try store.undoLastStep())
    #expect(undone.description == "add apple" && undone.rowCount == 1)
    #expect(try store.entry(id: entry.id)?.deleted == true)
    #expect(try store.undoSteps(limit: 10).isEmpty)
    #expect(try store.undoLastStep() == nil)
  }

  @Test func undoingEditsOneAtATimeWalksBackToTheFirstValue() throws {
    let entry = try add("apple")
    _ = try edit(entry.id, note: "pear")
    _ = try edit(entry.id, note: "plum")
    let last = try #require(try store.undoLastStep())
    #expect(last.restoredEntryIDs == [entry.id])
    #expect(try store.entry(id: entry.id)?.note == "pear")
    _ = try store.undoLastStep()
    #expect(try store.entry(id: entry.id)?.note == "apple")
    _ = try store.undoLastStep()
    #expect(try store.entry(id: entry.id)?.deleted == true)
  }

  @Test func aFieldChangedOutsideTheStepRefusesTheUndoAndWritesNothing() throws {
    let entry = try add("apple")
    _ = try edit(entry.id, note: "pear")
    // Not recorded, like a merge from another machine: the note's stamp is no longer the step's.
    var changes = EntryChanges()
    changes.note = .some("fig")
    _ = try store.update(id: entry.id, with: changes)
    let before = try store.entry(id: entry.id)
    #expect(throws: InputError.self) { try store.undoLastStep() }
    #expect(try store.entry(id: entry.id) == before)
    #expect(try store.undoSteps(limit: 10).count == 2, "the refused step is kept")
  }

  @Test func aStepThatChangesNothingIsNotRecorded() throws {
    let entry = try add("apple")
    _ = try store.recordingUndoStep({ "nothing" }) { try store.entry(id: entry.id) }
    #expect(try store.undoSteps(limit: 10).map(\.description) == ["add apple"])
  }

  @Test func aSettingChangeIsUndoneToItsPreviousValue() throws {
    _ = try store.recordingUndoStep({ "set \($0)" }) { try store.set(.mealGapHours, to: "5") }
    #expect(try store.value(of: .mealGapHours) == "5")
    _ = try store.undoLastStep()
    #expect(try store.value(of: .mealGapHours) == Setting.mealGapHours.defaultValue)
  }

  @Test func onlyTheNewestStepsAreListed() throws {
    for index in 0..<(LogStore.keptUndoSteps + 5) { _ = try add("n\(index)") }
    let steps = try store.undoSteps(limit: 1_000)
    #expect(steps.count == LogStore.keptUndoSteps)
    #expect(steps.first?.description == "add n\(LogStore.keptUndoSteps + 4)")
  }
}
