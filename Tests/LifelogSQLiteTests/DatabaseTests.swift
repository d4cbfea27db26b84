import Dispatch
import LifelogSQLite
import LifelogTestSupport
import Testing

@Suite struct DatabaseTests {
  let folder = TemporaryDirectory()

  @Test func valuesRoundTripThroughEveryBindableType() throws {
    let database = try Database(path: ":memory:")
    try database.execute(sql: "CREATE TABLE t (i INTEGER, d REAL, s TEXT, b BLOB, n TEXT)")
    try database.execute(
      sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
      arguments: [Int64(42), 2.5, "zażółć \"gęślą\"", [UInt8]([0, 1, 255]), String?.none])
    let row = try #require(
      try database.cachedStatement(sql: "SELECT i, d, s, b, n FROM t").first { row in
        (row[0] as Int64, row[1] as Double, row[2] as String, row[3] as [UInt8], row[4] as String?)
      })
    #expect(row.0 == 42)
    #expect(row.1 == 2.5)
    #expect(row.2 == "zażółć \"gęślą\"")
    #expect(row.3 == [0, 1, 255])
    #expect(row.4 == nil)
  }

  @Test func cachedStatementsAreReusedAndForgetOldBindings() throws {
    let database = try Database(path: ":memory:")
    let first = try database.cachedStatement(sql: "SELECT ?")
    let second = try database.cachedStatement(sql: "SELECT ?")
    #expect(first === second)
    #expect(try first.first([7]) { $0[0] as Int } == 7)
    #expect(try first.first([Int?.none]) { $0.isNull(0) } == true)
  }

  @Test func aFailedTransactionLeavesNothingBehind() throws {
    let database = try Database(path: ":memory:")
    try database.execute(sql: "CREATE TABLE t (x INTEGER NOT NULL)")
    #expect(throws: SQLiteError.self) {
      try database.inTransaction {
        try database.execute(sql: "INSERT INTO t VALUES (1)", arguments: [])
        try database.execute(sql: "INSERT INTO t VALUES (NULL)", arguments: [])
      }
    }
    #expect(try database.cachedStatement(sql: "SELECT count(*) FROM t").first { $0[0] as Int } == 0)
  }

  @Test func aNestedTransactionRollsBackOnlyItsOwnWork() throws {
    let database = try Database(path: ":memory:")
    try database.execute(sql: "CREATE TABLE t (x INTEGER)")
    try database.inTransaction {
      try database.execute(sql: "INSERT INTO t VALUES (1)", arguments: [])
      try? database.inTransaction {
        try database.execute(sql: "INSERT INTO t VALUES (2)", arguments: [])
        throw SQLiteError(code: 1, message: "inner failure")
      }
    }
    #expect(
      try database.cachedStatement(sql: "SELECT group_concat(x) FROM t").first { $0[0] as String }
        == "1")
  }

  @Test func errorsNameTheStatementButNotItsValues() throws {
    let database = try Database(path: ":memory:")
    try database.execute(sql: "CREATE TABLE t (x INTEGER NOT NULL)")
    let error = try #require(throws: SQLiteError.self) {
      try database.execute(sql: "INSERT INTO t VALUES (?)", arguments: [Int?.none])
    }
    #expect(error.description.contains("NOT NULL constraint failed: t.x"))
    #expect(error.description.contains("INSERT INTO t VALUES (?)"))
  }

  @Test func aWriterWaitsForAnotherConnectionsLockInsteadOfFailing() throws {
    let path = folder.file("busy.db")
    let holder = try Database(path: path)
    try holder.execute(sql: "PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER)")
    let waiter = try Database(path: path, busyTimeoutMilliseconds: 5_000)
    try holder.execute(sql: "BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
    nonisolated(unsafe) let lockHolder = holder
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
      try? lockHolder.execute(sql: "COMMIT")
    }
    try waiter.inTransaction { try waiter.execute(sql: "INSERT INTO t VALUES (2)", arguments: []) }
    #expect(try waiter.cachedStatement(sql: "SELECT count(*) FROM t").first { $0[0] as Int } == 2)
  }
}
