import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCore

/// Schema v8: an `add`'s undo step kept in its entry's row, moved into `local_undo_step` by any
/// other write that needs it there, and the migration from v7.
@Suite struct AddStepInEntryTests {
  let folder = TemporaryDirectory()
  let lunch = ActivityName.derivedID(for: "lunch")

  private func at(_ minutes: Int64) -> LoggedTime {
    LoggedTime(instant: 1_764_633_600 + minutes * 60, offsetMinutes: 60)
  }

  private func integer(_ store: LogStore, _ sql: String) throws -> Int64 {
    try store.database.cachedStatement(sql: sql).first { $0[0] as Int64 } ?? -1
  }

  @discardableResult
  private func add(_ store: LogStore, _ note: String, _ minute: Int64) throws -> Entry {
    try store.recordingUndoStep({ "add \($0.note ?? "")" }) {
      try store.add(NewEntry(activityID: lunch, time: at(minute), note: note))
    }
  }

  private func edit(_ store: LogStore, _ id: String, note: String) throws {
    _ = try store.recordingUndoStep({ (entry: Entry) in "edit \(entry.note ?? "")" }) {
      var changes = EntryChanges()
      changes.note = .some(note)
      return try store.update(id: id, with: changes)
    }
  }

  private func stepsInTable(_ store: LogStore) throws -> Int64 {
    try integer(store, "SELECT count(*) FROM local_undo_step")
  }

  private func stepsInEntries(_ store: LogStore) throws -> Int64 {
    try integer(store, "SELECT count(*) FROM entry WHERE add_step IS NOT NULL")
  }

  @Test func anAddKeepsItsStepInItsEntryAndUndoRevertsIt() throws {
    let store = try LogStore(path: folder.file("add.db"))
    #expect(store.hasAddStepInEntry)
    let soup = try add(store, "soup", 0)
    let salad = try add(store, "salad", 1)
    #expect(try stepsInTable(store) == 0 && stepsInEntries(store) == 2)
    let listed = try store.undoSteps(limit: 10)
    #expect(listed.map(\.description) == ["add salad", "add soup"])
    #expect(listed.map(\.seq) == [2, 1] && listed.map(\.rowCount) == [1, 1])
    #expect(try store.undoLastStep()?.description == "add salad")
    #expect(try store.entry(id: salad.id)?.deleted == true)
    #expect(try store.entry(id: soup.id)?.deleted == false)
    #expect(try stepsInEntries(store) == 0)
    #expect(try store.undoSteps(limit: 10).map(\.description) == ["add soup"])
    // The next add keeps its step in its entry again, after the one now in the table.
    try add(store, "stew", 2)
    #expect(try stepsInEntries(store) == 1)
    #expect(try store.undoSteps(limit: 10).map(\.seq) == [2, 1])
    #expect(try store.undoLastStep()?.description == "add stew")
    #expect(try store.undoLastStep()?.description == "add soup")
    #expect(try store.entry(id: soup.id)?.deleted == true)
    #expect(try store.undoLastStep() == nil)
  }

  @Test func anotherStepMovesTheAddStepsIntoTheTableAndUndoWalksBackThroughAll() throws {
    let store = try LogStore(path: folder.file("edit.db"))
    let soup = try add(store, "soup", 0)
    try add(store, "salad", 1)
    try edit(store, soup.id, note: "stew")
    #expect(try stepsInTable(store) == 3 && stepsInEntries(store) == 0)
    try add(store, "bread", 2)
    #expect(try stepsInTable(store) == 3 && stepsInEntries(store) == 1)
    #expect(
      try store.undoSteps(limit: 10).map(\.description)
        == ["add bread", "edit stew", "add salad", "add soup"])
    var undone: [String] = []
    while let step = try store.undoLastStep() { undone.append(step.description) }
    #expect(undone == ["add bread", "edit stew", "add salad", "add soup"])
    #expect(try store.entry(id: soup.id)?.deleted == true)
    #expect(try store.entry(id: soup.id)?.note == "soup")
  }

  /// A merge (here the queue's move past local entries, as one does first) leaves no step in an
  /// entry: the mark moves past the rows it brings, which keep none.
  @Test func aMergeMovesTheStepsIntoTheTable() throws {
    let store = try LogStore(path: folder.file("merge.db"))
    try add(store, "soup", 0)
    try add(store, "salad", 1)
    try store.inTransaction { try store.queueEntriesPastMark() }
    #expect(try stepsInTable(store) == 2 && stepsInEntries(store) == 0)
    #expect(
      try integer(store, "SELECT undo_entry_rowid FROM sync_device")
        == integer(store, "SELECT max(rowid) FROM entry"))
    #expect(try store.undoSteps(limit: 10).map(\.description) == ["add salad", "add soup"])
    #expect(try store.undoLastStep()?.description == "add salad")
  }

  /// The failed-commit read-back finds a step kept in an entry (docs/reliability.md).
  @Test func theWriteMarkOfAnAddIsItsEntrysStep() throws {
    let path = folder.file("mark.db")
    let store = try LogStore(path: path)
    try add(store, "soup", 0)
    let step = try #require(try store.undoSteps(limit: 1).first)
    #expect(try WriteMark.stepRecorded(seq: step.seq, description: "add soup").isInLog(at: path))
    #expect(try !WriteMark.stepRecorded(seq: step.seq, description: "add x").isInLog(at: path))
    #expect(try !WriteMark.stepUndone(seq: step.seq, description: "add soup").isInLog(at: path))
    _ = try store.undoLastStep()
    #expect(try WriteMark.stepUndone(seq: step.seq, description: "add soup").isInLog(at: path))
  }

  /// A v7 log (made by the v7 code: steps in `local_undo_step`, entries queued by position)
  /// keeps its steps and queue; the first add after the migration keeps its step in its entry.
  @Test func theMigrationFromV7KeepsTheStepsAndTheQueue() throws {
    let path = folder.file("v7.db")
    let soup: Entry
    do {
      let old = try LogStore(path: path, schemaVersion: 7)
      #expect(old.hasOneRowUndo && !old.hasAddStepInEntry)
      soup = try add(old, "soup", 0)
      try add(old, "salad", 1)
      try edit(old, soup.id, note: "stew")
      #expect(try stepsInTable(old) == 3)
      #expect(try old.pendingRowCount() == 2)
    }
    let store = try LogStore(path: path)
    #expect(store.hasAddStepInEntry)
    #expect(try store.appliedMigrations() == LogStore.knownMigrations)
    #expect(try integer(store, "PRAGMA user_version") == Int64(LogStore.knownMigrations.count))
    #expect(try integer(store, "SELECT undo_entry_rowid FROM sync_device") == 2)
    #expect(try store.pendingRowCount() == 2)
    #expect(
      try store.undoSteps(limit: 10).map(\.description) == ["edit stew", "add salad", "add soup"])
    try add(store, "bread", 2)
    #expect(try stepsInTable(store) == 3 && stepsInEntries(store) == 1)
    #expect(try store.pendingRowCount() == 3)
    var undone: [String] = []
    while let step = try store.undoLastStep() { undone.append(step.description) }
    #expect(undone == ["add bread", "edit stew", "add salad", "add soup"])
    #expect(try store.entry(id: soup.id)?.note == "soup")
  }

  /// Steps kept in entries that are not JSON (written by hand) are neither listed nor a failure.
  @Test func aStepInAnEntryThatIsNotJSONIsPassedOver() throws {
    let store = try LogStore(path: folder.file("junk.db"))
    try add(store, "soup", 0)
    try add(store, "salad", 1)
    try store.database.execute(
      sql: "UPDATE entry SET add_step = 'not json' WHERE rowid = (SELECT max(rowid) FROM entry)")
    #expect(try store.undoSteps(limit: 10).map(\.description) == ["add soup"])
    try add(store, "stew", 2)
    #expect(try store.undoSteps(limit: 10).map(\.description) == ["add stew", "add soup"])
    #expect(try store.undoLastStep()?.description == "add stew")
    #expect(try store.undoLastStep()?.description == "add soup")
    #expect(try store.undoLastStep() == nil)
  }

  /// An add reads the device row and the steps once, with its clock, and writes its step with an
  /// update that reads neither: each statement an add prepares is paid on every `add`.
  @Test func anAddReadsTheStepsOnceWithItsClock() throws {
    let store = try LogStore(path: folder.file("reads.db"))
    try add(store, "soup", 0)
    try edit(store, try add(store, "salad", 1).id, note: "stew")
    let traced = try store.database.statements { try add(store, "bread", 2) }.sql
    #expect(traced.filter { $0.contains("local_undo_step") }.count == 1)
    #expect(traced.filter { $0.contains("sync_device") }.count == 1)
    #expect(traced.contains { $0.hasPrefix("UPDATE entry SET add_step") })
    #expect(try stepsInTable(store) == 3 && stepsInEntries(store) == 1)
    #expect(try store.undoSteps(limit: 10).map(\.seq) == [4, 3, 2, 1])
    try add(store, "tea", 3)
    #expect(try store.undoSteps(limit: 10).map(\.seq) == [5, 4, 3, 2, 1])
    #expect(try store.undoLastStep()?.description == "add tea")
    #expect(try store.undoLastStep()?.description == "add bread")
    #expect(try store.undoLastStep()?.description == "edit stew")
  }

  /// A step kept in an entry in a form lifelog does not write (valid JSON with spaces, written by
  /// hand) is read by SQLite's JSON functions: the next add's seq is one past it.
  @Test func aHandWrittenStepInValidJSONStillGivesTheNextSeq() throws {
    let store = try LogStore(path: folder.file("spaces.db"))
    try add(store, "soup", 0)
    try store.database.execute(
      sql: """
        UPDATE entry SET add_step = '[ 7, 1, "add soup", 1, 0, "" ]'
        WHERE rowid = (SELECT max(rowid) FROM entry)
        """)
    try add(store, "salad", 1)
    #expect(try stepsInEntries(store) == 2)
    #expect(try store.undoSteps(limit: 10).map(\.seq) == [8, 7])
    #expect(try store.undoLastStep()?.description == "add salad")
  }
}
