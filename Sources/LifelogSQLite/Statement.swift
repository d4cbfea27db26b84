import CSQLite

/// A prepared SQL statement.
///
/// Statements are reused through ``Database/cachedStatement(sql:)``: each run resets the statement
/// and clears its bindings first, so a previous run never leaks values into the next.
public final class Statement {
  @usableFromInline let handle: OpaquePointer
  /// The SQL this statement was prepared from.
  public let sql: String
  unowned let database: Database

  init(database: Database, sql: String, persistent: Bool) throws(SQLiteError) {
    var handle: OpaquePointer?
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    let code = sqlite3_prepare_v3(database.handle, sql, -1, flags, &handle, nil)
    guard code == SQLITE_OK, let handle else {
      throw database.error(code: code, sql: sql)
    }
    self.handle = handle
    self.sql = sql
    self.database = database
  }

  deinit { sqlite3_finalize(handle) }

  /// Resets the statement and binds `arguments` to its parameters, in order.
  public func bind(_ arguments: [any SQLiteBindable]) throws(SQLiteError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, argument) in arguments.enumerated() {
      let code = argument.bind(to: handle, at: Int32(offset + 1))
      guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
    }
  }

  /// Runs the statement to completion, ignoring any rows it returns.
  public func execute(_ arguments: [any SQLiteBindable] = []) throws(SQLiteError) {
    try bind(arguments)
    while try step() {}
  }

  /// Runs the statement and calls `body` for each row it returns.
  public func forEachRow(
    _ arguments: [any SQLiteBindable] = [], _ body: (Row) throws -> Void
  ) throws {
    try bind(arguments)
    let row = Row(statement: self)
    while try step() { try body(row) }
  }

  /// Runs the statement and maps each row it returns.
  public func map<T>(
    _ arguments: [any SQLiteBindable] = [], _ transform: (Row) throws -> T
  ) throws
    -> [T]
  {
    var result: [T] = []
    try forEachRow(arguments) { result.append(try transform($0)) }
    return result
  }

  /// Runs the statement and returns the first row mapped, or nil when there is none.
  public func first<T>(
    _ arguments: [any SQLiteBindable] = [], _ transform: (Row) throws -> T
  )
    throws -> T?
  {
    try bind(arguments)
    defer { sqlite3_reset(handle) }
    guard try step() else { return nil }
    return try transform(Row(statement: self))
  }

  // MARK: - Binding one value at a time

  /// Resets the statement and clears its bindings, before binding values one by one.
  ///
  /// ``bind(_:at:)`` then skips the array of existentials that ``bind(_:)`` takes, which matters
  /// when one statement runs a million times (`lifelog import`).
  public func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Binds one value to the 1-based parameter `index`.
  public func bind(_ value: some SQLiteBindable, at index: Int32) throws(SQLiteError) {
    let code = value.bind(to: handle, at: index)
    guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
  }

  /// Runs a statement whose values are already bound, ignoring any rows it returns.
  public func run() throws(SQLiteError) {
    while try step() {}
  }

  /// Advances to the next row; returns false when the statement is done.
  func step() throws(SQLiteError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let error = database.error(code: code, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }
}
