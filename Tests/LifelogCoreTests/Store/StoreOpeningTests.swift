import Foundation
import LifelogCore
import LifelogSQLite
import LifelogTestSupport
import Testing

@Suite struct StoreOpeningTests {
  let folder = TemporaryDirectory()

  @Test func aNewLogIsPrivateAndStartsWithTheDefaultActivities() throws {
    let path = folder.file("data/lifelog/lifelog.db")
    let store = try LogStore(path: path)
    #expect(try permissions(of: folder.file("data")) == 0o700)
    #expect(try permissions(of: folder.file("data/lifelog")) == 0o700)
    #expect(try permissions(of: path) == 0o600)
    let names = try store.activities().map(\.name).sorted()
    #expect(names == ["breakfast", "dinner", "lunch", "run", "sleep", "snack", "walk", "workout"])
    #expect(try store.activity(named: "Breakfast")?.kind == .meal)
    #expect(try store.activity(named: "sleep")?.kind == .sleep)
  }

  @Test func theLogIsInWriteAheadLogMode() throws {
    let store = try LogStore(path: folder.file("wal.db"))
    let mode = try store.database.cachedStatement(sql: "PRAGMA journal_mode").first {
      $0[0] as String
    }
    #expect(mode == "wal")
  }

  @Test(arguments: 0...LogStore.knownMigrations.count)
  func migratingFromAnEarlierSchemaKeepsTheDataAndEndsCurrent(startingAt version: Int) throws {
    let path = folder.file("v\(version).db")
    do {
      let old = try LogStore(path: path, schemaVersion: version)
      #expect(try old.appliedMigrations() == Array(LogStore.knownMigrations.prefix(version)))
      // From v5 (compact keys) on, the entry table is the one today's writes fit.
      if version >= 5 {
        try old.add(
          NewEntry(
            activityID: ActivityName.derivedID(for: "lunch"),
            time: LoggedTime(instant: 1_000, offsetMinutes: 60), note: "kept"))
        try old.database.execute(
          sql: "UPDATE activity SET name = 'gym', name_key = 'gym' WHERE name = 'workout'")
      } else if version >= 1 {
        // Written with the SQL of schema v1, as the lifelog of that version would have.
        try old.database.execute(
          sql: "INSERT INTO entry (id, activity_id, at, tz_offset, note) VALUES (?, ?, ?, ?, ?)",
          arguments: [UUIDText.random(), ActivityName.derivedID(for: "lunch"), 1_000, 60, "kept"])
        try old.database.execute(
          sql: "UPDATE activity SET name = 'gym', name_key = 'gym' WHERE name = 'workout'")
      }
    }
    let store = try LogStore(path: path)
    #expect(try store.appliedMigrations() == LogStore.knownMigrations)
    if version >= 1 {
      #expect(try store.entries(EntryQuery()).map(\.note) == ["kept"])
    }
    if version >= 1, version < 2 {
      // Rows from before sync are queued to be sent; untouched default activities are not.
      let pending = try store.database.cachedStatement(
        sql: "SELECT entity FROM sync_pending ORDER BY entity"
      )
      .map { $0[0] as String }
      #expect(pending == ["activity", "entry"])
    }
    // Opening again applies nothing twice.
    #expect(try LogStore(path: path).appliedMigrations() == LogStore.knownMigrations)
  }

  @Test func aLogWrittenByANewerLifelogIsRefusedAndLeftByteForByteUntouched() throws {
    let path = folder.file("newer.db")
    do {
      let store = try LogStore(path: path)
      try store.database.execute(sql: "PRAGMA journal_mode = DELETE")
      try store.database.execute(
        sql: "INSERT INTO lifelog_migrations (identifier) VALUES ('v99-from-the-future'); "
          + "PRAGMA user_version = 99")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let error = try #require(throws: StoreError.self) { try LogStore(path: path) }
    guard case .newerSchema(_, let unknown) = error else {
      Issue.record("expected newerSchema, got \(error)")
      return
    }
    #expect(unknown == ["v99-from-the-future"])
    #expect(error.description.contains("upgrade lifelog"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  /// The same with the WAL a log keeps between commands: refusing must not close the connection
  /// the way a writer does (copying the WAL into the file and deleting it), or the newer
  /// lifelog's last commits would be moved by an older one.
  @Test func aNewerLogWithItsWALIsRefusedAndBothFilesAreLeftByteForByte() throws {
    let path = folder.file("newer-wal.db")
    do {
      let store = try LogStore(path: path)
      try store.database.execute(
        sql: "INSERT INTO lifelog_migrations (identifier) VALUES ('v99-from-the-future'); "
          + "PRAGMA user_version = 99")
    }
    let wal = path + "-wal"
    #expect(try fileSize(wal) > 0, "the newer log's last commit is not in its WAL")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let walBefore = try Data(contentsOf: URL(fileURLWithPath: wal))
    let error = try #require(throws: StoreError.self) { try LogStore(path: path) }
    guard case .newerSchema(_, let unknown) = error else {
      Issue.record("expected newerSchema, got \(error)")
      return
    }
    #expect(unknown == ["v99-from-the-future"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(try Data(contentsOf: URL(fileURLWithPath: wal)) == walBefore)
  }

  @Test func aFileThatIsNotADatabaseIsNamedAsSuch() throws {
    let path = folder.file("notes.txt")
    try "shopping list: eggs, milk\n".write(toFile: path, atomically: true, encoding: .utf8)
    let error = try #require(throws: StoreError.self) { try LogStore(path: path) }
    guard case .notADatabase = error else {
      Issue.record("expected notADatabase, got \(error)")
      return
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "shopping list: eggs, milk\n")
  }

  @Test func aFolderThatCannotBeCreatedIsReported() throws {
    let blocker = folder.file("file")
    try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
    #expect(throws: StoreError.self) { try LogStore(path: blocker + "/sub/lifelog.db") }
  }

  /// The WAL is kept between commands (no checkpoint, no `fdatasync`, no unlink on close), and
  /// what a closed connection committed is read back from it by the next one.
  @Test func theWALOutlivesTheConnectionAndTheNextOneReadsItsCommits() throws {
    let path = folder.file("kept.db")
    do {
      let store = try LogStore(path: path)
      let synchronous = try store.database.cachedStatement(sql: "PRAGMA synchronous").first {
        $0[0] as Int
      }
      #expect(synchronous == 2, "FULL: every commit is on disk before it returns")
      _ = try store.add(
        NewEntry(
          activityID: ActivityName.derivedID(for: "snack"),
          time: LoggedTime(instant: 1_000, offsetMinutes: 0), note: "kept"))
    }
    #expect(try fileSize(path + "-wal") > 0, "the closing connection emptied the WAL")
    #expect(FileManager.default.fileExists(atPath: path + "-shm"))
    let walBefore = try fileSize(path + "-wal")
    let store = try LogStore(path: path)
    #expect(try store.entries(EntryQuery()).map(\.note) == ["kept"])
    #expect(try fileSize(path + "-wal") == walBefore, "opening and reading wrote to the WAL")
    let check = try store.database.cachedStatement(sql: "PRAGMA integrity_check").first {
      $0[0] as String
    }
    #expect(check == "ok")
  }

  /// A WAL grown past `walCheckpointBytes` is copied into the log file and emptied when the
  /// connection closes, so the next process does not read it all back; the log file alone then
  /// holds every entry.
  @Test func aWALGrownPastItsLimitIsEmptiedIntoTheLogFileOnClose() throws {
    let path = folder.file("big.db")
    let snack = ActivityName.derivedID(for: "snack")
    let entries = (0..<20_000).map { index in
      NewEntry(
        activityID: snack, time: LoggedTime(instant: Int64(index) * 60, offsetMinutes: 0),
        note: "entry \(index) with a note long enough to fill pages")
    }
    do {
      let store = try LogStore(path: path)
      try store.add(contentsOf: entries)
      #expect(try fileSize(path + "-wal") > LogStore.walCheckpointBytes)
    }
    #expect(try fileSize(path + "-wal") == 0)
    let copy = folder.file("copy-of-the-file-alone.db")
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    #expect(try LogStore(path: copy).entryCount() == entries.count)
  }

  private func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
  }

  private func fileSize(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.size] as? NSNumber)?.intValue ?? -1
  }
}
