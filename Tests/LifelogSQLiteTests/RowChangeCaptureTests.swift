import LifelogSQLite
import Testing

/// The pre-update capture behind `lifelog undo`: what it keeps of each kind of write.
@Suite struct RowChangeCaptureTests {
  func database() throws -> Database {
    let database = try Database(path: ":memory:")
    try database.execute(
      sql: """
        CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, n INTEGER, r REAL, s TEXT);
        CREATE TABLE other (id TEXT PRIMARY KEY NOT NULL);
        INSERT INTO t VALUES ('a', 1, 2.5, 'x'), ('b', NULL, NULL, NULL);
        """)
    return database
  }

  @Test func keepsTheFirstChangeOfEachRowWithItsColumnsBefore() throws {
    let database = try database()
    let capture = RowChangeCapture(database: database, tables: ["t"])
    try database.execute(sql: "UPDATE t SET n = 9 WHERE id = 'b'")  // not recording yet
    capture.start()
    try database.execute(
      sql: "UPDATE t SET n = 2 WHERE id = 'a'; UPDATE t SET n = 3 WHERE id = 'a'")
    try database.execute(
      sql: "INSERT INTO t VALUES ('c', 1, 1.0, 'y'); INSERT INTO other VALUES ('z')")
    // An upsert meeting a row is its update; one doing nothing changes nothing.
    try database.execute(
      sql: "INSERT INTO t VALUES ('b', 5, 0, '') ON CONFLICT (id) DO UPDATE SET s = 'upserted'")
    try database.execute(sql: "INSERT INTO t VALUES ('a', 0, 0, '') ON CONFLICT DO NOTHING")
    capture.stop()
    try database.execute(sql: "UPDATE t SET n = 4 WHERE id = 'c'")
    #expect(capture.changes.map(\.key) == [.text("a"), .text("c"), .text("b")])
    let a = capture.changes[0].before
    #expect(a.count == 4 && a[1].text == "1" && a[2].text == "2.5" && a[3].text == "x")
    #expect(capture.changes[1].before.isEmpty)  // inserted
    let b = capture.changes[2].before
    #expect(b[1].text == "9" && b[2].text == nil && b[3].text == nil)
    // Bound back, each value is what SQLite held: json_array tells integers, reals and null apart.
    let json: String? = try database.cachedStatement(sql: "SELECT json_array(?, ?, ?, ?)").first(
      a.map { $0 }
    ) { $0[0] }
    #expect(json == #"["a",1,2.5,"x"]"#)
  }

  @Test func ignoredInsertsAreNotKeptAndStartForgets() throws {
    let database = try database()
    let capture = RowChangeCapture(database: database, tables: ["t"])
    capture.start()
    capture.ignoredInserts = ["t"]
    try database.execute(sql: "INSERT INTO t VALUES ('c', 1, 1.0, 'y'); UPDATE t SET s = 'z'")
    // 'c' is met by the update only: kept as changed, with its columns as inserted.
    #expect(capture.changes.map(\.key) == [.text("a"), .text("b"), .text("c")])
    #expect(capture.changes[2].before[3].text == "y")
    capture.start()
    #expect(capture.changes.isEmpty && capture.ignoredInserts.isEmpty)
  }
}

/// Blob keys (the log keeps entry ids as 16 bytes) come back as their bytes, text keys as text.
@Suite struct RowChangeCaptureBlobKeyTests {
  @Test func aBlobKeyIsKeptAsItsBytes() throws {
    let database = try Database(path: ":memory:")
    try database.execute(
      sql:
        "CREATE TABLE t (id ANY NOT NULL UNIQUE, n INTEGER) STRICT; INSERT INTO t VALUES (x'00ff10', 1), ('t', 2)"
    )
    let capture = RowChangeCapture(database: database, tables: ["t"])
    capture.start()
    try database.execute(sql: "UPDATE t SET n = n + 1")
    capture.stop()
    #expect(capture.changes.map(\.key) == [.blob([0x00, 0xff, 0x10]), .text("t")])
  }
}

/// Rows are told apart by table and key together, and a blob key from a text key with the same
/// characters: each is its own first change.
@Suite struct RowChangeCaptureRowIdentityTests {
  @Test func theSameKeyInAnotherTableOrAsABlobIsAnotherRow() throws {
    let database = try Database(path: ":memory:")
    try database.execute(
      sql: """
        CREATE TABLE t (id ANY NOT NULL UNIQUE, n INTEGER) STRICT;
        CREATE TABLE u (id ANY NOT NULL UNIQUE, n INTEGER) STRICT;
        INSERT INTO t VALUES ('AB', 1), (x'4142', 2), ('A' || char(0) || 'B', 3), (x'410042', 4);
        INSERT INTO u VALUES ('AB', 1);
        """)
    let capture = RowChangeCapture(database: database, tables: ["t", "u"])
    capture.start()
    try database.execute(sql: "UPDATE t SET n = n + 1; UPDATE u SET n = n + 1")
    try database.execute(sql: "UPDATE t SET n = n + 1; UPDATE u SET n = n + 1")
    capture.stop()
    #expect(capture.changes.map(\.table) == ["t", "t", "t", "t", "u"])
    #expect(
      capture.changes.map(\.key) == [
        .text("AB"), .blob([0x41, 0x42]), .text("A\u{0}B"), .blob([0x41, 0x00, 0x42]), .text("AB"),
      ])
  }
}
