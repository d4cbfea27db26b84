@preconcurrency import Glibc
import LifelogSQLite

/// The local log: one SQLite database holding activities, entries and settings.
///
/// Opening it creates the file on first use (folder 0700, file 0600), refuses a database written
/// by a newer lifelog before touching it, switches to WAL so readers never block the writer, and
/// applies pending migrations. Every write runs in one short `BEGIN IMMEDIATE` transaction, so two
/// lifelog processes writing at once wait for each other instead of failing.
public final class LogStore {
  public let database: Database
  /// The path the store was opened from.
  public let path: String
  /// The wall clock stamps are taken from, in milliseconds (tests skew it to play other machines).
  public var wallClockMilliseconds: @Sendable () -> Int64 = LogStore.systemMilliseconds
  var cachedDeviceID: String?
  /// What this connection's undo steps see change, made by the first step that records
  /// (see `LogStore+UndoRecording.swift`).
  var undoCapture: RowChangeCapture?
  /// The stamp of the rows the recording step created in bulk (an import), nil when none.
  var undoBulkStamp: String?
  /// The clock reading the undo step being recorded took its stamps from: saved in the step's
  /// row rather than in `sync_device` (``OneRowUndoMigration``), nil when no stamp was taken.
  var stepClock: HybridClock?
  /// What the undo step being recorded read, with its first clock reading, of the steps and the
  /// newest entry: what its step needs to be kept in the entry it adds (``EntryStepBase``).
  var stepBase: EntryStepBase?
  /// Whether the log is at schema v7 or later: undo steps in one row, holding their clock, and
  /// entries queued by position.
  public private(set) var hasOneRowUndo = false
  /// Whether the log is at schema v8 or later: an `add`'s undo step is kept in its entry's row.
  public private(set) var hasAddStepInEntry = false
  /// What the write transaction now running leaves for a read-back after a failed `COMMIT`.
  package var pendingWriteMark: WriteMark?
  /// Whether the write transaction now running numbered the undo steps again: a failed `COMMIT`
  /// then has no mark to read back (``LogStore/renumberUndoSteps()``), so it says it cannot tell.
  var stepsRenumbered = false
  /// Whether this connection keeps the WAL on close: every read-write connection to a file, once
  /// it has opened the log (a log refused on opening is closed as SQLite always closes).
  private var keepsWAL = false
  /// Whether this open created the log (no migration had run): a first run may still name it.
  public private(set) var isNewLog = false

  /// The WAL as found before the connection read it, when it already held frames: its folder is
  /// not synced again (``SyncedWAL``).
  private var syncedWAL: SyncedWAL?

  /// The page cache (KiB): 64 MiB, allocated only as pages are used, keeps bulk writes in memory.
  package static let cacheKiB = 65536

  /// Past this size (bytes) a closing read-write connection empties the WAL into the log file.
  ///
  /// The WAL is kept between commands (an `add` then costs one `fdatasync`, of the WAL, not five;
  /// see ``SyncedWAL`` for its folder), but the first process to open the log reads every frame of it back
  /// to rebuild its index, about 2–3 µs of CPU per 4 KB frame (0.3–0.6 ms for 170 frames):
  /// 512 KiB (about 10 `add`s on a 100,000-entry log) keeps that read near 0.15 ms on average,
  /// and the two `fdatasync`s of the checkpoint are paid once per that many commands.
  public static let walCheckpointBytes = 1 << 19

  /// Opens (creating when missing) the log at `path`; `:memory:` gives a private in-memory log.
  ///
  /// - Parameter schemaVersion: how many migrations to apply (tests build older schemas with it).
  /// - Parameter busyTimeoutMilliseconds: how long a write waits for another process's lock.
  /// - Parameter readOnly: open an existing log without creating, migrating or writing anything
  ///   (`lifelog check`); SQLite then refuses every write on the connection.
  public init(
    path: String, schemaVersion: Int? = nil, busyTimeoutMilliseconds: Int32 = 10_000,
    readOnly: Bool = false
  ) throws {
    let schemaVersion = schemaVersion ?? Migration.all.count
    self.path = path
    let readOnly = readOnly && path != ":memory:"
    if readOnly, access(path, F_OK) != 0 {
      throw StoreError.cannotOpen(path: path, reason: "there is no log there")
    }
    if path != ":memory:", !readOnly { try LogStore.createFileIfMissing(path) }
    do {
      database = try Database(
        path: path, mode: readOnly ? .readOnly : .readWrite,
        busyTimeoutMilliseconds: busyTimeoutMilliseconds)
      try StoredEntryID.define(on: database)
      let migrator = Migrator(database: database, path: path)
      // A log refused below (written by a newer lifelog) is left as it was found: with a WAL,
      // closing the connection would otherwise copy the WAL into the log file and delete it.
      var wal = stat()
      if !readOnly, path != ":memory:", stat(path + "-wal", &wal) == 0 {
        try database.keepWriteAheadLogOnClose()
        syncedWAL = SyncedWAL(
          device: UInt64(wal.st_dev), inode: UInt64(wal.st_ino), bytes: Int64(wal.st_size))
      }
      let applied = try migrator.appliedOnOpening()
      try migrator.checkNotNewer(applied: applied)
      hasOneRowUndo = applied.count >= Migration.oneRowUndoCount
      hasAddStepInEntry = applied.count >= Migration.addStepInEntryCount
      if readOnly { return }
      isNewLog = applied.isEmpty
      // `synchronous = FULL`: each commit `fdatasync`s the WAL before `COMMIT` returns, so what
      // a command reports done is on disk. The WAL outlives the connection (see `deinit`); a
      // bulk write that grows it past `journal_size_limit` has it cut back when it restarts.
      try database.execute(
        sql:
          "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA cache_size = -\(LogStore.cacheKiB); "
          + "PRAGMA journal_size_limit = \(8 * LogStore.walCheckpointBytes)")
      if path != ":memory:" {
        try database.keepWriteAheadLogOnClose()
        keepsWAL = true
      }
      if applied.count < schemaVersion { try migrator.migrate(upTo: schemaVersion) }
      hasOneRowUndo = max(applied.count, schemaVersion) >= Migration.oneRowUndoCount
      hasAddStepInEntry = max(applied.count, schemaVersion) >= Migration.addStepInEntryCount
    } catch let error as SQLiteError {
      throw StoreError.wrapping(error, path: path, opening: true)
    }
  }

  /// Empties a WAL grown past ``walCheckpointBytes`` before the connection closes.
  ///
  /// The next process's open then stays cheap; a smaller WAL is left for later commands to
  /// append to. Never
  /// waits: when another process holds the log, the checkpoint is left to a later close (or to
  /// SQLite's own at 1,000 pages).
  deinit {
    guard keepsWAL else { return }
    var info = stat()
    guard stat(path + "-wal", &info) == 0, info.st_size > LogStore.walCheckpointBytes else {
      return
    }
    database.checkpointBeforeClosing()
  }

  /// The identifiers of the migrations applied to this database, oldest first.
  public func appliedMigrations() throws -> [String] {
    try Migrator(database: database, path: path).appliedIdentifiers()
  }

  /// The identifiers of every migration this lifelog knows, oldest first.
  public static var knownMigrations: [String] { Migration.all.map(\.identifier) }

  /// Runs `body` in one write transaction, turning a lock held too long into ``StoreError/busy(path:)``
  /// and a failed `COMMIT` into ``StoreError/commitFailed(path:cause:mark:)``.
  package func write<T>(_ body: () throws -> T) throws -> T {
    let outermost = !database.isInTransaction
    if outermost {
      pendingWriteMark = nil
      stepsRenumbered = false
    }
    do {
      guard outermost else { return try database.inTransaction(body) }
      let result = try database.inTransaction {
        let result = try body()
        CommitProgress.commitStarting()
        return result
      }
      CommitProgress.commitReturned()
      return result
    } catch let error as SQLiteError where outermost && error.sql == "COMMIT" {
      throw StoreError.commitFailed(
        path: path, cause: error, mark: stepsRenumbered ? nil : pendingWriteMark)
    } catch let error as SQLiteError {
      throw StoreError.wrapping(error, path: path)
    }
  }

  /// Runs `body` against one consistent snapshot of the database: for a command that reads with
  /// several queries and must not see a change another process commits between them (`due`).
  public func reading<T>(_ body: () throws -> T) throws -> T {
    try read(body)
  }

  /// Runs `body` against one consistent snapshot of the database.
  package func read<T>(_ body: () throws -> T) throws -> T {
    do {
      return try database.inReadTransaction(body)
    } catch let error as SQLiteError {
      throw StoreError.wrapping(error, path: path)
    }
  }

  /// Creates the database file (0600) and any missing folders above it (0700).
  private static func createFileIfMissing(_ path: String) throws {
    if access(path, F_OK) == 0 { return }
    try createFolders(for: path)
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      close(descriptor)
    } else if errno != EEXIST {
      let code = errno
      guard StoreError.diskErrnos.contains(code) else {
        throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(code)))
      }
      // The disk or a permission failed, not the path: told as SQLite tells it, an I/O error
      // (10), a full disk (13) or a file it cannot open (14).
      let sqliteCode: Int32 = code == EIO ? 10 : code == ENOSPC ? 13 : 14
      throw StoreError.storage(
        path: path,
        cause: SQLiteError(
          code: sqliteCode, message: String(cString: strerror(code)), systemErrno: code))
    }
  }

  private static func createFolders(for path: String) throws {
    do {
      try LocalFile.createFolders(above: path)
    } catch {
      throw StoreError.cannotOpen(
        path: path, reason: "cannot create folder '\(error.path)': \(error.reason)")
    }
  }
}

extension LogStore {
  /// Runs `body` in one write transaction: everything it writes commits together, or nothing does.
  public func inTransaction<T>(_ body: () throws -> T) throws -> T {
    try write(body)
  }
}
