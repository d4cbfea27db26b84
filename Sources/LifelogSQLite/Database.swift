import CSQLite

/// One connection to an SQLite database.
///
/// Not `Sendable`: a connection belongs to the code that opened it. Statements prepared through
/// ``cachedStatement(sql:)`` are kept for the life of the connection, so a command that runs the
/// same query many times prepares it once.
public final class Database {
  let handle: OpaquePointer
  /// The path the connection was opened with.
  public let path: String
  private var statementCache: [String: Statement] = [:]
  var transactionDepth = 0

  /// Whether a transaction started by ``inTransaction(_:)`` or ``inReadTransaction(_:)`` is open.
  public var isInTransaction: Bool { transactionDepth > 0 }

  /// How a connection may use its file.
  public enum OpenMode: Sendable {
    case readOnly
    case readWrite
    /// Read and write, creating the file when it is missing.
    case create
  }

  /// Process-wide settings, made once before the first connection opens: memory statistics off
  /// (SQLite would otherwise lock a global mutex around every allocation: 4.5% of an import's
  /// samples in `perf`; 1,000,000-row imports took 8.4–9.4 s against 8.1–11.0 s, alternated).
  ///
  /// The folder-sync filter of ``SyncedWAL`` is installed after (finding the VFS initializes
  /// SQLite, after which the statistics can no longer be turned off).
  private static let configured: Bool = {
    let statisticsOff = csqlite_disable_memory_statistics() == SQLITE_OK
    return SyncedWAL.filterInstalled && statisticsOff
  }()

  /// Opens the database at `path` (`:memory:` for a private in-memory database).
  ///
  /// - Parameter busyTimeoutMilliseconds: how long a statement waits for another connection's
  ///   lock before failing with `SQLITE_BUSY`.
  public init(
    path: String, mode: OpenMode = .create, busyTimeoutMilliseconds: Int32 = 10_000
  )
    throws(SQLiteError)
  {
    _ = Database.configured
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    switch mode {
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    case .readWrite: flags |= SQLITE_OPEN_READWRITE
    case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    }
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      let systemErrno =
        SQLiteError.reportsSystemErrno(code) ? handle.map { sqlite3_system_errno($0) } ?? 0 : 0
      sqlite3_close_v2(handle)
      throw SQLiteError(code: code, message: message, systemErrno: systemErrno)
    }
    self.handle = handle
    self.path = path
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
  }

  deinit {
    statementCache.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Runs one or more SQL statements that take no arguments.
  public func execute(sql: String) throws(SQLiteError) {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code: code, sql: sql) }
  }

  /// Runs one statement with arguments, through the statement cache.
  public func execute(sql: String, arguments: [any SQLiteBindable]) throws(SQLiteError) {
    try cachedStatement(sql: sql).execute(arguments)
  }

  /// Returns a prepared statement for `sql`, preparing it on first use only.
  public func cachedStatement(sql: String) throws(SQLiteError) -> Statement {
    if let statement = statementCache[sql] { return statement }
    let statement = try Statement(database: self, sql: sql, persistent: true)
    statementCache[sql] = statement
    return statement
  }

  /// Prepares a statement that is not cached (for SQL built at run time).
  public func makeStatement(sql: String) throws(SQLiteError) -> Statement {
    try Statement(database: self, sql: sql, persistent: false)
  }

  /// Keeps the `-wal` and `-shm` files when this connection closes as the last one.
  ///
  /// `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`: no checkpoint on close, so closing costs no `fsync`
  /// and the next process finds the files in place instead of creating them (and `fsync`ing the
  /// folder) again. Committed transactions are in the WAL already, synced as `synchronous` says.
  public func keepWriteAheadLogOnClose() throws(SQLiteError) {
    var now: Int32 = 0
    let code = csqlite_set_no_checkpoint_on_close(handle, 1, &now)
    guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
    guard now == 1 else {
      throw SQLiteError(code: SQLITE_ERROR, message: "SQLite kept checkpointing on close")
    }
  }

  /// Copies every page of the WAL into the database file and empties the WAL.
  ///
  /// `SQLITE_CHECKPOINT_TRUNCATE`, without waiting for any lock: when another connection is
  /// reading or writing, it does what it can at once and returns `false`. For a connection about
  /// to close: it leaves the busy timeout at zero.
  ///
  /// - Returns: whether the WAL was emptied.
  @discardableResult
  public func checkpointBeforeClosing() -> Bool {
    sqlite3_busy_timeout(handle, 0)
    // A connection that has read nothing has not opened the WAL yet, and SQLite 3.40 then
    // checkpoints nothing and reports success: one read of the header opens it.
    guard sqlite3_exec(handle, "PRAGMA schema_version", nil, nil, nil) == SQLITE_OK else {
      return false
    }
    return sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_OK
  }

  /// The number of rows changed by the most recent INSERT, UPDATE or DELETE.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// The rowid of the row the last successful `INSERT` on this connection made.
  public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Whether a table of this name exists in the main schema.
  public func tableExists(_ name: String) throws(SQLiteError) -> Bool {
    let statement = try cachedStatement(
      sql: "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?")
    do {
      return try statement.first([name]) { _ in true } ?? false
    } catch let error as SQLiteError {
      throw error
    } catch {
      throw SQLiteError(code: SQLITE_ERROR, message: "\(error)")
    }
  }

  func error(code: Int32, sql: String?) -> SQLiteError {
    SQLiteError(
      code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql,
      systemErrno: SQLiteError.reportsSystemErrno(code) ? sqlite3_system_errno(handle) : 0)
  }
}
