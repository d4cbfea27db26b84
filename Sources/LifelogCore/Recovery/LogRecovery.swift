@preconcurrency import Glibc
import LifelogSQLite

/// Builds a new log from what SQLite can still read of a damaged one (`lifelog recover`).
///
/// The damaged files are only read: a private copy of them is what SQLite opens. The new log is
/// made by ``LogStore`` at the damaged log's schema version, then every table both have is copied
/// row by row (``TableSalvage``), then it is migrated to this lifelog's schema and given a new
/// sync identity (``LogStore/restartSync()``), and checked with `PRAGMA integrity_check`.
public enum LogRecovery {
  /// Tables the new log makes for itself.
  static let ownTables: Set<String> = ["lifelog_migrations"]

  /// Builds a new log at `target` (which must not exist) from the log at `damaged`.
  ///
  /// - Throws: ``RecoveryError`` when nothing can be read, `LocalFileError` when a file cannot be
  ///   copied or made; `target` is then removed.
  public static func recover(_ damaged: String, into target: String) throws -> RecoveryReport {
    let copy = try DamagedLogCopy(of: damaged, at: target + ".reading")
    defer { copy.remove() }
    do {
      var report = RecoveryReport()
      let schema = try DamagedSchema.read(copy, reportingTo: &report, path: damaged)
      do {
        let store = try LogStore(path: target, schemaVersion: schema.migrations)
        try salvage(schema, from: copy.path, into: store, report: &report)
      }
      let store = try LogStore(path: target)
      try store.write { try store.restartSync() }
      let finding = try store.database.makeStatement(sql: "PRAGMA integrity_check").first {
        $0[0] as String
      }
      guard finding == "ok" else {
        throw RecoveryError.newLogDamaged(path: target, finding: finding ?? "no answer")
      }
      store.database.checkpointBeforeClosing()
      return report
    } catch {
      DamagedLogCopy.remove(target)
      throw error
    }
  }

  /// Copies every table the damaged log and the new one both have (the new log is private until
  /// recovery ends, so a failure leaves only a file to delete).
  private static func salvage(
    _ schema: DamagedSchema, from path: String, into store: LogStore,
    report: inout RecoveryReport
  ) throws {
    let database = store.database
    try database.execute(sql: "ATTACH DATABASE ? AS damaged", arguments: [path])
    defer { try? database.execute(sql: "DETACH DATABASE damaged") }
    let tables = try database.makeStatement(
      sql:
        "SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rootpage"
    ).map { $0[0] as String }
    // No transaction around the copy: once a read of the damaged file has failed, SQLite fails
    // the COMMIT of any transaction that read it. Each run commits alone, unsynced (the file is
    // new and private until the end, when reopening and checkpointing it syncs it).
    try database.execute(sql: "PRAGMA synchronous = OFF")
    for table in tables where schema.tables.contains(table) && !ownTables.contains(table) {
      let columns = try sharedColumns(of: table, in: database)
      guard !columns.isEmpty else { continue }
      report.tables.append(TableSalvage(database: database, table: table, columns: columns).run())
    }
  }

  /// The quoted names of the columns `table` has in both logs, comma-separated.
  private static func sharedColumns(of table: String, in database: Database) throws -> String {
    let new = try database.makeStatement(sql: "SELECT name FROM pragma_table_info(?, 'main')").map(
      [table]
    ) { $0[0] as String }
    let old = Set(
      try database.makeStatement(sql: "SELECT name FROM pragma_table_info(?, 'damaged')").map(
        [table]
      ) { $0[0] as String })
    return new.filter(old.contains).map { "\"\($0)\"" }.joined(separator: ", ")
  }
}

/// What recovery learns of a damaged log before copying: its tables and its schema version.
struct DamagedSchema {
  var tables: Set<String>
  /// How many of this lifelog's migrations the damaged log had applied.
  var migrations: Int

  /// Reads the table of tables of `copy`, rebuilding the copy's header when SQLite cannot.
  static func read(
    _ copy: DamagedLogCopy, reportingTo report: inout RecoveryReport, path: String
  ) throws -> DamagedSchema {
    if let schema = try? DamagedSchema(copy.path) { return try schema.checked(path: path) }
    let hadHeader = copy.hasHeader
    var sizes = DamagedLogCopy.pageSizes
    if let size = copy.walPageSize { sizes.insert(size, at: 0) }
    for size in sizes {
      try copy.rebuildHeader(pageSize: size)
      if let schema = try? DamagedSchema(copy.path), schema.tables.contains("entry") {
        report.headerRebuilt = true
        return try schema.checked(path: path)
      }
    }
    throw hadHeader
      ? RecoveryError.nothingReadable(path: path) : RecoveryError.notALog(path: path)
  }

  private init(_ path: String) throws {
    let database = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 0)
    tables = Set(
      try database.makeStatement(sql: "SELECT name FROM sqlite_schema WHERE type = 'table'").map {
        $0[0] as String
      })
    let known = LogStore.knownMigrations
    let applied =
      (try? database.makeStatement(sql: "SELECT identifier FROM lifelog_migrations").map {
        $0[0] as String
      }) ?? known
    if let unknown = applied.first(where: { !known.contains($0) }) {
      throw StoreError.newerSchema(path: path, unknownMigrations: [unknown])
    }
    migrations = max(1, known.filter(applied.contains).count)
  }

  /// Itself, when it is a lifelog log's schema.
  private func checked(path: String) throws -> DamagedSchema {
    guard tables.contains("entry"), tables.contains("activity") else {
      throw RecoveryError.notALog(path: path)
    }
    return self
  }
}
