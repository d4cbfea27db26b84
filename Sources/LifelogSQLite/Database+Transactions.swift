/// Transactions: one write lock for the whole body, released on every path.
extension Database {
  /// Runs `body` inside a write transaction and returns its result.
  ///
  /// The outermost call runs `BEGIN IMMEDIATE`, so the write lock is taken up front and two
  /// writers wait for each other (up to the busy timeout) instead of failing halfway. Nested calls
  /// use a savepoint. When `body` throws, everything it wrote is rolled back and the first error is
  /// rethrown.
  public func inTransaction<T>(_ body: () throws -> T) throws -> T {
    let nested = transactionDepth > 0
    let name = "lifelog_\(transactionDepth)"
    try execute(sql: nested ? "SAVEPOINT \(name)" : "BEGIN IMMEDIATE")
    transactionDepth += 1
    defer { transactionDepth -= 1 }
    do {
      let result = try body()
      try execute(sql: nested ? "RELEASE \(name)" : "COMMIT")
      return result
    } catch {
      if nested {
        try? execute(sql: "ROLLBACK TO \(name)")
        try? execute(sql: "RELEASE \(name)")
      } else {
        try? execute(sql: "ROLLBACK")
      }
      throw error
    }
  }

  /// Runs `body` inside a read transaction, so every query in it sees the same snapshot.
  ///
  /// `BEGIN` and `COMMIT` are prepared once per connection (``cachedStatement(sql:)``), not
  /// parsed on every call: a server answers a pull with one of these per request.
  public func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
    guard transactionDepth == 0 else { return try body() }
    try cachedStatement(sql: "BEGIN DEFERRED").execute()
    transactionDepth += 1
    defer { transactionDepth -= 1 }
    do {
      let result = try body()
      try cachedStatement(sql: "COMMIT").execute()
      return result
    } catch {
      try? execute(sql: "ROLLBACK")
      throw error
    }
  }
}
