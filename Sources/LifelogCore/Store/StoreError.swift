@preconcurrency import Glibc
import LifelogSQLite

/// Why the log could not be opened or used, as opposed to bad input (``InputError``).
public enum StoreError: Error, CustomStringConvertible {
  /// The database was written by a newer lifelog; it is left untouched.
  case newerSchema(path: String, unknownMigrations: [String])
  /// The file exists but is not a lifelog (or any SQLite) database.
  case notADatabase(path: String, reason: String)
  /// The folder or file could not be created or opened.
  case cannotOpen(path: String, reason: String)
  /// Another process held the database lock for longer than the busy timeout.
  case busy(path: String)
  /// The disk or the file system failed the log: it is full, an I/O error, a read-only file, or
  /// content SQLite reads as damaged (a passing read error does that too). The command line
  /// tells these apart for people, reading the log back when it must (`StorageFailureReport`).
  case storage(path: String, cause: SQLiteError)
  /// The `COMMIT` of a write failed after its pages reached the WAL: the change may be in the
  /// log (SQLite's recovery keeps frames written before a failed sync) or not. `mark` names what
  /// a fresh connection finds when it is in (``WriteMark``); nil for a write that leaves none.
  case commitFailed(path: String, cause: SQLiteError, mark: WriteMark?)
  /// Anything else SQLite reported.
  case sqlite(SQLiteError)

  public var description: String {
    switch self {
    case .newerSchema(let path, let unknown):
      return
        "The database '\(path)' was written by a newer lifelog (schema \(unknown.joined(separator: ", "))); "
        + "upgrade lifelog to use it. Nothing was changed"
    case .notADatabase(let path, let reason):
      return
        "'\(path)' is not a lifelog database (\(reason)); point --db or LIFELOG_DB at another file"
    case .cannotOpen(let path, let reason):
      return "Cannot open the database '\(path)': \(reason); check the path and its permissions"
    case .busy(let path):
      return "The database '\(path)' is busy: another process has held its lock too long; "
        + "try again in a moment"
    case .storage(let path, let cause):
      return StoreError.storageSummary(cause, path: path)
    case .commitFailed(let path, let cause, _):
      return "Saving to the log '\(path)' failed at its last step ("
        + StoreError.storageSummary(cause, path: path)
        + "); the change may or may not be in the log"
    case .sqlite(let error):
      return error.description
    }
  }

  /// Wraps an SQLite error, naming the common cases (busy, not a database, the disk) for people.
  ///
  /// - Parameter opening: whether the error came while opening the log, where SQLite's "not a
  ///   database" means the file is something else, not a damaged log.
  public static func wrapping(
    _ error: SQLiteError, path: String, opening: Bool = false
  ) -> StoreError {
    if error.isBusy { return .busy(path: path) }
    if opening, error.primaryCode == 26 {  // SQLITE_NOTADB
      return .notADatabase(path: path, reason: error.message)
    }
    if error.isCannotOpen, !StoreError.diskErrnos.contains(error.systemErrno),
      StoreError.isRegularFile(path)
    {
      // The log is there, so the path is not at fault: the system failed the open (SQLite's
      // errno for it is then the last of several calls, often an `ENOENT` of a `-wal` probe).
      return .storage(
        path: path,
        cause: SQLiteError(code: error.code, message: error.message, sql: error.sql))
    }
    if error.isCannotOpen, !StoreError.diskErrnos.contains(error.systemErrno) {
      let reason =
        error.systemErrno != 0 ? String(cString: strerror(error.systemErrno)) : error.message
      return .cannotOpen(path: path, reason: reason)
    }
    if error.isDiskFull || error.isIOError || error.isCorruption || error.isReadOnly
      || error.isCannotOpen || error.isOutOfMemory
    {
      return .storage(path: path, cause: error)
    }
    return .sqlite(error)
  }

  /// The `errno`s of a failed open or create that the disk or its permissions explain, not the
  /// path: an I/O error, a full disk, a read-only file, folder or file system.
  public static let diskErrnos: Set<Int32> = [EIO, ENOSPC, EACCES, EPERM, EROFS]

  /// Whether `path` names an existing regular file.
  static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }

  /// The failure in words, without SQLite's codes: what a server log or a library user reads (the
  /// command line builds its own, longer message).
  static func storageSummary(_ cause: SQLiteError, path: String) -> String {
    let reason = cause.systemErrno != 0 ? ": " + String(cString: strerror(cause.systemErrno)) : ""
    if cause.isDiskFull { return "the disk holding '\(path)' is full" }
    if cause.isOutOfMemory { return "the system ran out of memory while using '\(path)'" }
    if cause.isCorruption { return "'\(path)' reads as damaged" }
    if cause.isReadOnly { return "'\(path)' cannot be written\(reason)" }
    return "an I/O error on '\(path)'\(reason)"
  }
}
