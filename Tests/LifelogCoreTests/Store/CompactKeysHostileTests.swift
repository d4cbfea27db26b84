import Foundation
import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCore

/// Schema v5 against what a hostile old log, a damaged log or an odd id does to it.
@Suite struct CompactKeysHostileTests: CompactKeysSample {
  let folder = TemporaryDirectory()

  private let insertV4 =
    "INSERT INTO entry (id, activity_id, at, tz_offset, note, tags, stamps) VALUES (?, ?, ?, ?, ?, '', '')"

  /// A v4 log with odd activity ids, ids alike but for case, and undo rows whose `before` is not
  /// the JSON array v4 wrote: the migration keeps every entry, and leaves those undo rows as they
  /// were (it cannot know what they meant); undoing such a step fails without writing anything.
  @Test func aHostileV4LogMigratesWholeAndKeepsMalformedUndoRowsAsTheyWere() throws {
    let path = folder.file("v4.db")
    let upper = "ABCDEF01-2345-4678-9ABC-DEF012345678"
    let lower = upper.lowercased()
    let long = String(repeating: "q", count: 5_000)
    let malformed = ["not json at all", "[", "{\"a\": 1}", "\"text\"", "[]", "[1, 2]"]
    do {
      let old = try LogStore(path: path, schemaVersion: 4)
      try old.database.execute(sql: insertV4, arguments: [upper, lunch, 100, 0, "upper"])
      try old.database.execute(sql: insertV4, arguments: [lower, lunch, 200, 0, "lower"])
      try old.database.execute(sql: insertV4, arguments: ["empty-activity", "", 300, 0, "empty"])
      try old.database.execute(sql: insertV4, arguments: ["long-activity", long, 400, 0, "long"])
      try old.database.execute(
        sql: "INSERT INTO local_undo_step (seq, at_ms, description) VALUES (1, 0, 'odd')")
      for before in malformed {
        try old.database.execute(
          sql: """
            INSERT INTO local_undo_row (step, entity, id, created, fields, before, before_stamps, after_stamps)
            VALUES (1, 'entry', ?, 0, '0', ?, '', '')
            """,
          arguments: [lower, before])
      }
    }
    let store = try LogStore(path: path)
    #expect(try store.appliedMigrations() == LogStore.knownMigrations)
    #expect(try store.entry(id: upper)?.note == "upper")
    #expect(try store.entry(id: lower)?.note == "lower")
    #expect(try store.entry(id: "empty-activity")?.activityID == "")
    #expect(try store.entry(id: "long-activity")?.activityID == long)
    #expect(
      try stored(store, "SELECT typeof(id) FROM entry ORDER BY rowid") == [
        "text", "blob", "text", "text",
      ])
    #expect(
      try stored(
        store,
        "SELECT json_extract(r.value, '$[4]') FROM local_undo_step, json_each(rows) r ORDER BY r.key"
      ) == malformed)
    // The malformed step cannot be undone, and refusing it changes nothing.
    #expect(throws: (any Error).self) { try store.undoLastStep() }
    #expect(try store.entry(id: lower)?.note == "lower")
  }

  /// A v4 log whose rows break its own CHECK constraints (written with them turned off): the copy
  /// into v5 would fail on them and leave the log unopenable, so it takes such a value as absent
  /// (a negative duration) or as set (a `deleted` other than 0), as sync does with values out of
  /// range.
  @Test func aV4RowThatBreaksItsChecksDoesNotStopTheMigration() throws {
    let path = folder.file("v4.db")
    let id = UUIDText.random()
    do {
      let old = try LogStore(path: path, schemaVersion: 4)
      try old.database.execute(
        sql: """
          PRAGMA ignore_check_constraints = ON;
          INSERT INTO entry (id, activity_id, at, tz_offset, duration, deleted, note)
            VALUES ('\(id)', '\(lunch)', 100, 0, -5, 2, 'bad');
          PRAGMA ignore_check_constraints = OFF;
          """)
    }
    let store = try LogStore(path: path)
    #expect(try store.appliedMigrations() == LogStore.knownMigrations)
    let entry = try #require(try store.entry(id: id))
    #expect(entry.note == "bad" && entry.duration == nil && entry.deleted)
  }

  /// VACUUM after the migration is best-effort: another process reading the log does not make
  /// the migration fail.
  @Test func theMigrationSucceedsWhileAnotherConnectionHoldsAReadTransaction() throws {
    let path = folder.file("v4.db")
    do {
      let old = try LogStore(path: path, schemaVersion: 4)
      for index in 0..<200 {
        try old.database.execute(
          sql: insertV4, arguments: [UUIDText.random(), lunch, index, 0, "n\(index)"])
      }
    }
    let reader = try Database(path: path, mode: .readOnly, busyTimeoutMilliseconds: 100)
    try reader.execute(sql: "BEGIN")
    #expect(
      try reader.cachedStatement(sql: "SELECT count(*) FROM entry").first { $0[0] as Int } == 200)
    let store = try LogStore(path: path, busyTimeoutMilliseconds: 100)
    #expect(try store.appliedMigrations() == LogStore.knownMigrations)
    #expect(try store.entryCount() == 200)
    // The reader still sees its snapshot of the old log, then the new one.
    #expect(
      try reader.cachedStatement(sql: "SELECT count(*) FROM entry").first { $0[0] as Int } == 200)
    try reader.execute(sql: "COMMIT")
    #expect(try LogStore(path: path).entryCount() == 200)
  }

  /// Undo over entries whose ids are 16-byte keys, text, and text holding a NUL.
  @Test(arguments: [
    UUIDText.random(), "ABCD-not-a-uuid", "1a2b\u{0}after-nul", "\u{1}ctrl",
  ])
  func undoRevertsAddEditDeleteAndActivityChangesWhateverTheIdForm(id: String) throws {
    let store = try LogStore(path: folder.file("log.db"))
    try store.recordingUndoStep({ _ in "add" }) {
      try store.add(NewEntry(id: id, activityID: lunch, time: at(1), note: "first"))
    }
    var note = EntryChanges()
    note.note = .some("second")
    try store.recordingUndoStep({ _ in "edit note" }) { try store.update(id: id, with: note) }
    var activity = EntryChanges()
    activity.activityID = walk
    try store.recordingUndoStep({ _ in "edit activity" }) {
      try store.update(id: id, with: activity)
    }
    try store.recordingUndoStep({ _ in "delete" }) { try store.setDeleted(true, ids: [id]) }
    #expect(try store.entry(id: id)?.deleted == true)
    #expect(try store.undoLastStep()?.description == "delete")
    #expect(try store.entry(id: id)?.deleted == false)
    #expect(try store.undoLastStep()?.description == "edit activity")
    #expect(try store.entry(id: id)?.activityID == lunch)
    #expect(try store.undoLastStep()?.description == "edit note")
    #expect(try store.entry(id: id)?.note == "first")
    #expect(try store.undoLastStep()?.description == "add")
    #expect(try store.entry(id: id)?.deleted == true)
    #expect(try store.undoLastStep() == nil)
  }

  /// Short ids over 16-byte and text ids: odd lengths, and all-`f` prefixes at the top of the
  /// byte range.
  @Test func shortIdsOfOddLengthAndAllFFindBlobAndTextIds() throws {
    let store = try LogStore(path: folder.file("log.db"))
    let top = "ffffffff-ffff-ffff-ffff-ffffffffffff"
    let nearTop = "fffff0ff-ffff-4fff-bfff-ffffffffffff"
    let text = "fffff-text"
    let odd = "1a2b3c4d-0000-4000-8000-000000000000"
    for id in [top, nearTop, text, odd] {
      try store.add(NewEntry(id: id, activityID: lunch, time: at(1)))
    }
    #expect(try store.resolveEntryID("1a2b3") == odd)
    #expect(try store.resolveEntryID("1A2B3C4D0") == odd)
    #expect(try store.resolveEntryID("ffffffff") == top)
    #expect(try store.resolveEntryID("fffff0") == nearTop)
    #expect(try store.resolveEntryID(String(repeating: "f", count: 32)) == top)
    let ambiguous = try #require(throws: InputError.self) { try store.resolveEntryID("fffff") }
    #expect(ambiguous.description.contains("ambiguous"))
    #expect(throws: InputError.self) { try store.resolveEntryID("fffffff0") }
    #expect(throws: InputError.self) { try store.resolveEntryID(String(repeating: "f", count: 33)) }
  }

  /// Ids alike but for case, and one not hex at all, from sync: a prefix finds text ids with case
  /// and dashes ignored (so all three are ambiguous), and each is reached by its full text.
  @Test func aFullIdNamesItsEntryAndPrefixesIgnoreCaseOverTextIds() throws {
    let store = try LogStore(path: folder.file("log.db"))
    let lower = "92ae6d22-83fc-4e56-9afd-d5b59b27c33f"
    let upper = lower.uppercased()
    let mixed = "92Ae6d22-83fc-4e56-9afd-d5b59b27c33f"
    let braces = "{" + lower + "}"
    let dashless = "ABCDEF0123"
    for id in [lower, upper, mixed, braces, dashless] {
      try store.add(NewEntry(id: id, activityID: lunch, time: at(1)))
    }
    for id in [lower, upper, mixed, braces, dashless] {
      #expect(try store.resolveEntryID(id) == id)
    }
    let error = try #require(throws: InputError.self) { try store.resolveEntryID("92ae6d22") }
    #expect(error.description.contains("ambiguous"))
    #expect(try store.resolveEntryID("abcd-ef01") == dashless)
    #expect(throws: InputError.self) { try store.resolveEntryID("{92ae") }
  }

  /// `check` on a v5 log damaged by hand names each damage instead of failing.
  @Test func checkNamesDamageToTheCompactColumns() throws {
    let path = folder.file("log.db")
    let canonical = "0a0b0c0d-0000-4000-8000-000000000000"
    do {
      let store = try LogStore(path: path)
      try store.add(NewEntry(activityID: lunch, time: at(1), note: "fine"))
      // A 15-byte id is refused by the table's CHECK…
      #expect(throws: (any Error).self) {
        try store.database.execute(
          sql:
            "INSERT INTO entry (id, activity, at, tz_offset) VALUES (zeroblob(15), 1, 0, 0)")
      }
      // …unless CHECK constraints are turned off.
      try store.database.execute(
        sql: """
          PRAGMA ignore_check_constraints = ON;
          INSERT INTO entry (id, activity, at, tz_offset) VALUES (zeroblob(15), 1, 0, 0);
          INSERT INTO entry (id, activity, at, tz_offset) VALUES (zeroblob(17), 1, 0, 0);
          INSERT INTO entry (id, activity, at, tz_offset) VALUES (42, 1, 0, 0);
          PRAGMA ignore_check_constraints = OFF;
          INSERT INTO entry (id, activity, at, tz_offset) VALUES ('\(canonical)', 1, 0, 0);
          INSERT INTO entry (id, activity, at, tz_offset) VALUES ('no-key', 999, 0, 0);
          """)
    }
    let store = try LogStore(path: path, readOnly: true)
    var report = CheckReport()
    store.check(into: &report)
    let found = report.problems.map { "\($0.code) \($0.place) \($0.what)" }
    print(found.joined(separator: "\n"))
    #expect(report.checkedCount("entries") == 6)
    #expect(found.contains { $0.hasPrefix("id ") && $0.contains("15 bytes") })
    #expect(found.contains { $0.hasPrefix("id ") && $0.contains("17 bytes") })
    #expect(found.contains { $0.hasPrefix("id ") && $0.contains("integer") })
    #expect(found.contains { $0.hasPrefix("id ") && $0.contains(canonical) })
    #expect(
      found.contains { $0.hasPrefix("activity ") && $0.contains("no-key") && $0.contains("999") })
    #expect(!found.contains { $0.contains("fine") })
  }
}
