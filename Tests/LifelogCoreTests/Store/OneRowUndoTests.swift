import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCore

/// Schema v7: an undo step in one row holding its clock, entries queued by position, and the
/// migration from v6.
@Suite struct OneRowUndoTests {
  let folder = TemporaryDirectory()
  let lunch = ActivityName.derivedID(for: "lunch")

  private func at(_ minutes: Int64) -> LoggedTime {
    LoggedTime(instant: 1_764_633_600 + minutes * 60, offsetMinutes: 60)
  }

  private func strings(_ store: LogStore, _ sql: String) throws -> [String] {
    try store.database.cachedStatement(sql: sql).map { $0[0] as String }
  }

  private func integer(_ store: LogStore, _ sql: String) throws -> Int64 {
    try store.database.cachedStatement(sql: sql).first { $0[0] as Int64 } ?? -1
  }

  /// A v6 log with two entries (queued by rows) and an undo step that edited one of them: after
  /// the migration the queue holds the same rows, the step reverts the edit, and a new entry is
  /// pending without a queue row.
  @Test func theMigrationKeepsTheQueueAndTheUndoSteps() throws {
    let path = folder.file("v6.db")
    let first = UUIDText.random()
    do {
      let old = try LogStore(path: path, schemaVersion: 6)
      #expect(!old.hasOneRowUndo)
      try old.add(NewEntry(id: first, activityID: lunch, time: at(0), note: "soup"))
      try old.add(NewEntry(activityID: lunch, time: at(1), note: "salad"))
      // What the v6 code recorded for `edit 1 --note stew`.
      let stamps = try strings(old, "SELECT stamps FROM entry ORDER BY rowid LIMIT 1")[0]
      try old.database.execute(
        sql: "INSERT INTO local_undo_step (seq, at_ms, description) VALUES (1, 0, 'edit')")
      try old.database.execute(
        sql: """
          INSERT INTO local_undo_row (step, entity, id, created, fields, before, before_stamps, after_stamps)
            SELECT 1, 'entry', ?1, 0, '3', json_array(e.activity, e.at, e.tz_offset, e.duration, 'soup', e.quantity, e.tags, e.source, e.deleted), ?2, ?2
            FROM entry e WHERE e.rowid = 1
          """, arguments: [first, stamps])
      try old.database.execute(sql: "UPDATE entry SET note = 'stew' WHERE rowid = 1")
      #expect(try integer(old, "SELECT count(*) FROM sync_pending") == 2)
    }
    let store = try LogStore(path: path)
    #expect(store.hasOneRowUndo)
    #expect(try store.appliedMigrations() == LogStore.knownMigrations)
    // The count of migrations is in the file header: the next open reads it in one PRAGMA.
    #expect(try integer(store, "PRAGMA user_version") == Int64(LogStore.knownMigrations.count))
    #expect(try integer(store, "SELECT queued_entry_rowid FROM sync_device") == 2)
    #expect(try store.pendingRowCount() == 2)
    #expect(
      try strings(store, "SELECT name FROM sqlite_schema WHERE name LIKE 'local_undo_row%'") == [])
    let steps = try store.undoSteps(limit: 10)
    #expect(steps.map(\.description) == ["edit"] && steps.map(\.rowCount) == [1])
    #expect(try store.entry(id: first)?.note == "stew")
    #expect(try store.undoLastStep()?.description == "edit")
    #expect(try store.entry(id: first)?.note == "soup")
    // A new entry is pending by its position: no queue row is written for it.
    let rows = try integer(store, "SELECT count(*) FROM sync_pending")
    _ = try store.recordingUndoStep({ _ in "add" }) {
      try store.add(NewEntry(activityID: lunch, time: at(2)))
    }
    #expect(try integer(store, "SELECT count(*) FROM sync_pending") == rows)
    #expect(try store.pendingRowCount() == 3)
    #expect(try store.undoSteps(limit: 10).map(\.rowCount) == [1])
  }

  /// Stamps taken inside a recorded step go on rising although the step keeps the clock in its
  /// own row, not in `sync_device`; undoing the step keeps the clock where it was.
  @Test func theClockAStepKeepsIsTheClockTheNextStepReads() throws {
    let store = try LogStore(path: folder.file("clock.db"))
    store.wallClockMilliseconds = { 1_000_000 }
    let device = try integer(store, "SELECT clock_ms FROM sync_device")
    var stamps: [String] = []
    for minute: Int64 in 0..<5 {
      let entry = try store.recordingUndoStep({ _ in "add" }) {
        try store.add(NewEntry(activityID: lunch, time: at(minute)))
      }
      stamps += try strings(
        store, "SELECT stamps FROM entry WHERE id = lifelog_id_key('\(entry.id)')")
    }
    #expect(try integer(store, "SELECT clock_ms FROM sync_device") == device)
    #expect(stamps == stamps.sorted() && Set(stamps).count == 5, "\(stamps)")
    let last = try #require(stamps.last)
    _ = try store.undoLastStep()
    let clock = try store.clock()
    #expect(Stamp.make(milliseconds: clock.milliseconds, counter: clock.counter, device: "") > last)
    let again = try store.recordingUndoStep({ _ in "add" }) {
      try store.add(NewEntry(activityID: lunch, time: at(9)))
    }
    let stamp = try strings(
      store, "SELECT stamps FROM entry WHERE id = lifelog_id_key('\(again.id)')")[0]
    #expect(stamp > last)
  }

  /// A step whose body stamps nothing it keeps (no row changed) still moves the device's clock.
  @Test func aStepThatRecordsNothingSavesItsClockToTheDevice() throws {
    let store = try LogStore(path: folder.file("empty.db"))
    let before = try store.clock()
    store.wallClockMilliseconds = { before.milliseconds }
    _ = try store.recordingUndoStep({ _ in "nothing" }) { _ = try store.nextStamp() }
    #expect(try integer(store, "SELECT clock_ms FROM sync_device") == before.milliseconds)
    #expect(try integer(store, "SELECT clock_counter FROM sync_device") == before.counter + 1)
    #expect(try store.undoSteps(limit: 10).isEmpty)
  }
}
