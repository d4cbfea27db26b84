import Foundation
import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCore

/// Schema v5: entry ids stored as 16 bytes, activities as integer keys, and the migration to it.
@Suite struct CompactKeysTests: CompactKeysSample {
  let folder = TemporaryDirectory()

  @Test func aUUIDRoundTripsThroughItsSixteenBytesAndKeepsItsOrder() throws {
    var generator = SplitMix64(seed: 14)
    print("CompactKeysTests seed 14")
    var ids: [String] = []
    for _ in 0..<500 {
      let id = UUIDText.random(using: &generator)
      let bytes = try #require(StoredEntryID.key(ofText: id))
      #expect(bytes.count == 16 && UUIDText.format(bytes) == id)
      ids.append(id)
    }
    // Byte order is text order: ties on time list in the same order as before the migration.
    let byBytes = ids.sorted {
      StoredEntryID.key(ofText: $0)!.lexicographicallyPrecedes(StoredEntryID.key(ofText: $1)!)
    }
    #expect(byBytes == ids.sorted())
  }

  @Test(arguments: [
    "92AE6D22-83FC-4E56-9AFD-D5B59B27C33F", "92ae6d22-83fc-4e56-9afd-d5b59b27c33",
    "92ae6d22x83fc-4e56-9afd-d5b59b27c33f",
    "92ae6d2283fc4e569afdd5b59b27c33f", "g2ae6d22-83fc-4e56-9afd-d5b59b27c33f", "", "note",
  ])
  func anIdNotInLowerCaseUUIDFormIsKeptAsText(id: String) {
    #expect(StoredEntryID.key(ofText: id) == nil)
  }

  @Test func aPrefixRangeHoldsExactlyTheIdsStartingWithIt() throws {
    var generator = SplitMix64(seed: 15)
    print("CompactKeysTests seed 15")
    let ids =
      (0..<400).map { _ in UUIDText.random(using: &generator) } + [
        "ffffffff-ffff-4fff-bfff-ffffffffffff", "00000000-0000-4000-8000-000000000000",
      ]
    let prefixes =
      ["0", "f", "ff", "fff", "ffff", "00", "1a", "1a2", "9", "abc", "7ff", "8000"]
      + ids.prefix(20).map { String($0.filter { $0 != "-" }.prefix(5)) }
      + [ids[0].filter { $0 != "-" }]
    for prefix in prefixes {
      let range = try #require(StoredEntryID.range(ofPrefix: prefix))
      let inRange = ids.filter { id in
        let bytes = StoredEntryID.key(ofText: id)!
        return !bytes.lexicographicallyPrecedes(range.from)
          && bytes.lexicographicallyPrecedes(range.below)
      }
      let starting = ids.filter { $0.filter { $0 != "-" }.hasPrefix(prefix) }
      #expect(inRange.sorted() == starting.sorted(), "prefix \(prefix)")
    }
    #expect(StoredEntryID.range(ofPrefix: "") == nil)
    #expect(StoredEntryID.range(ofPrefix: "12g4") == nil)
    #expect(StoredEntryID.range(ofPrefix: String(repeating: "a", count: 33)) == nil)
  }

  @Test func entryIdsAreStoredAsSixteenBytesAndActivitiesAsKeys() throws {
    let store = try LogStore(path: folder.file("log.db"))
    let entry = try store.add(NewEntry(activityID: lunch, time: at(1), note: "soup"))
    #expect(try stored(store, "SELECT typeof(id) || length(id) FROM entry") == ["blob16"])
    #expect(try stored(store, "SELECT typeof(activity) FROM entry") == ["integer"])
    #expect(try store.entry(id: entry.id)?.activityName == "lunch")
    let short = String(entry.id.prefix(8))
    #expect(try store.resolveEntryID(short) == entry.id)
    #expect(try store.entries(EntryQuery(activityID: lunch)).map(\.id) == [entry.id])
  }

  @Test func anIdFromSyncThatIsNotAUUIDIsKeptAsTextAndStillFound() throws {
    let store = try LogStore(path: folder.file("log.db"))
    let odd = "ABCD-not-a-uuid"
    let hexText = "abcd1234"  // text of hex digits: found by short id like any other
    try store.add(NewEntry(id: odd, activityID: lunch, time: at(1)))
    try store.add(NewEntry(id: hexText, activityID: lunch, time: at(1)))
    let uuid = try store.add(
      NewEntry(id: "abcd1234-0000-4000-8000-000000000000", activityID: lunch, time: at(1)))
    #expect(try store.entry(id: odd)?.id == odd)
    #expect(
      try stored(store, "SELECT typeof(id) FROM entry ORDER BY rowid") == ["text", "text", "blob"])
    #expect(try store.entries(EntryQuery()).map(\.id).sorted() == [odd, hexText, uuid.id].sorted())
    let error = try #require(throws: InputError.self) { try store.resolveEntryID("abcd") }
    #expect(error.description.contains("ambiguous"))
    #expect(try store.resolveEntryID("abcd1234-0") == uuid.id)
  }

  @Test func anEntryWhoseActivityHasNotArrivedYetShowsAndKeepsItsActivityId() throws {
    let store = try LogStore(path: folder.file("log.db"))
    let unknown = "0a0a0a0a-0000-8000-8000-000000000000"
    let entry = try store.add(NewEntry(activityID: unknown, time: at(2)))
    let read = try #require(try store.entry(id: entry.id))
    #expect(read.activityID == unknown && read.activityName == "(unknown activity)")
  }

  /// A log made at schema v4 (what the code of that version wrote, with its SQL), with an entry
  /// id that is not a UUID, an entry of an activity the log lacks, and an undo step that changed
  /// an entry's activity: after the migration every entry reads back the same, rowids and the
  /// sync queue are kept, and the undo step still restores the old activity.
  @Test func theMigrationKeepsEveryEntryRowidQueueAndUndoStep() throws {
    let path = folder.file("v4.db")
    let edited = UUIDText.random()
    var before: [Entry] = []
    var pendingBefore: [String] = []
    do {
      let old = try LogStore(path: path, schemaVersion: 4)
      let insert =
        "INSERT INTO entry (id, activity_id, at, tz_offset, note, tags, stamps) VALUES (?, ?, ?, ?, ?, ?, ?)"
      try old.database.execute(
        sql: insert, arguments: [UUIDText.random(), lunch, 100, 60, "a", "x y", ""])
      try old.database.execute(
        sql: insert, arguments: ["odd id", walk, 200, 0, nil as String?, "", ""])
      try old.database.execute(
        sql: insert,
        arguments: [
          UUIDText.random(), "ffffffff-0000-8000-8000-000000000000", 300, -300, "gone", "", "",
        ])
      try old.database.execute(sql: insert, arguments: [edited, lunch, 400, 60, "edited", "", ""])
      // What the v4 code's `edit --activity walk` recorded: the before value holds the text id.
      try old.database.execute(
        sql: """
          INSERT INTO local_undo_step (seq, at_ms, description) VALUES (1, 0, 'edit');
          INSERT INTO local_undo_row (step, entity, id, created, fields, before, before_stamps, after_stamps)
            VALUES (1, 'entry', '\(edited)', 0, '0', json_array('\(lunch)', 400, 60, NULL, 'edited', NULL, '', NULL, 0), '', '');
          UPDATE entry SET activity_id = '\(walk)' WHERE id = '\(edited)';
          INSERT INTO sync_pending (entity, id) SELECT 'entry', id FROM entry ORDER BY rowid;
          """)
      before = try old.database.cachedStatement(
        sql:
          "SELECT e.id, e.activity_id, a.name, e.at, e.note FROM entry e LEFT JOIN activity a ON a.id = e.activity_id ORDER BY e.rowid"
      ).map { row in
        Entry(
          id: row[0], activityID: row[1], activityName: row[2] as String? ?? "(unknown activity)",
          kind: .other, unit: nil, time: LoggedTime(instant: row[3], offsetMinutes: 0),
          duration: nil, note: row[4], quantity: nil, tags: [], source: nil, deleted: false)
      }
      pendingBefore = try stored(old, "SELECT id FROM sync_pending ORDER BY position")
    }
    let store = try LogStore(path: path)
    #expect(try store.appliedMigrations() == LogStore.knownMigrations)
    let after = try store.database.cachedStatement(
      sql: "SELECT \(LogStore.entryColumns) FROM \(LogStore.entrySource) ORDER BY e.rowid"
    ).map([], LogStore.decodeEntry)
    #expect(after.map(\.id) == before.map(\.id))
    #expect(after.map(\.activityID) == before.map(\.activityID))
    #expect(after.map(\.activityName) == before.map(\.activityName))
    #expect(after.map(\.time.instant) == before.map(\.time.instant))
    #expect(after.map(\.note) == before.map(\.note))
    #expect(after[0].tags == ["x", "y"] && after[2].time.offsetMinutes == -300)
    #expect(
      try stored(store, "SELECT typeof(id) FROM entry ORDER BY rowid") == [
        "blob", "text", "blob", "blob",
      ])
    #expect(try stored(store, "SELECT id FROM sync_pending ORDER BY position") == pendingBefore)
    #expect(
      try stored(
        store,
        "SELECT name FROM sqlite_schema WHERE tbl_name = 'entry' AND type = 'index' ORDER BY name")
        == ["entry_by_activity", "entry_by_id", "entry_by_time"])
    // The undo step written before the migration puts the entry back on lunch.
    #expect(try store.undoLastStep()?.description == "edit")
    #expect(try store.entry(id: edited)?.activityName == "lunch")
    // Written after the migration, read by the next open: nothing applied twice.
    try store.add(NewEntry(activityID: walk, time: at(5)))
    #expect(try LogStore(path: path).entryCount() == 5)
  }

  /// The migration is one transaction: when it fails half way, the log is left at v4, whole.
  @Test func aMigrationThatFailsLeavesTheLogAsItWas() throws {
    let path = folder.file("v4.db")
    do {
      let old = try LogStore(path: path, schemaVersion: 4)
      try old.database.execute(
        sql: "INSERT INTO entry (id, activity_id, at, tz_offset, note) VALUES (?, ?, 1, 0, 'kept')",
        arguments: [UUIDText.random(), lunch])
      // A table in the way of the copy: its CREATE fails after `activity_key` was made.
      try old.database.execute(sql: "CREATE TABLE entry_compact (x INTEGER)")
    }
    #expect(throws: (any Error).self) { try LogStore(path: path) }
    let old = try LogStore(path: path, schemaVersion: 4)
    #expect(try old.appliedMigrations().count == 4)
    #expect(try !old.database.tableExists("activity_key"))
    #expect(try stored(old, "SELECT note FROM entry") == ["kept"])
  }
}
