import CSQLite

/// An error reported by SQLite, with the statement that caused it.
///
/// Bound values are never included, so a message can be shown or logged without leaking a note.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
  /// The extended result code (for example 2067 for `SQLITE_CONSTRAINT_UNIQUE`).
  public let code: Int32
  /// SQLite's own explanation.
  public let message: String
  /// The SQL that failed, when there was one.
  public let sql: String?
  /// The operating system's error number behind an I/O, open or disk-full failure (`errno`),
  /// 0 when SQLite reported none.
  public let systemErrno: Int32

  public init(code: Int32, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
    self.code = code
    self.message = message
    self.sql = sql
    self.systemErrno = systemErrno
  }

  /// The primary result code: the extended code with its detail bits removed.
  public var primaryCode: Int32 { code & 0xFF }

  /// Whether another connection held a lock for longer than the busy timeout, or SQLite could
  /// not get a consistent view of the WAL in its tries (`SQLITE_PROTOCOL`): both pass.
  public var isBusy: Bool {
    primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED || primaryCode == SQLITE_PROTOCOL
  }

  /// Whether the system refused SQLite memory (`SQLITE_NOMEM`, `SQLITE_IOERR_NOMEM`): the log
  /// is not at fault, and the command may work when run again.
  public var isOutOfMemory: Bool {
    primaryCode == SQLITE_NOMEM || code == SQLITE_IOERR | (12 << 8)
  }

  /// Linux's `ENOSPC` (this module sees no libc headers).
  static let noSpaceErrno: Int32 = 28

  /// The operation an I/O failure's extended code names (`reading`, `flushing`), and whether it
  /// was on the WAL's shared-memory file (`-shm`) rather than the database file.
  public var failedOperation: (verb: String, sharedMemory: Bool) {
    guard primaryCode == SQLITE_IOERR else {
      return (primaryCode == SQLITE_CANTOPEN ? "opening" : "using", false)
    }
    // The extended codes of `SQLITE_IOERR` (sqlite3.h: `SQLITE_IOERR | (n << 8)`).
    switch code >> 8 {
    case 1, 2, 32, 33: return ("reading", false)  // READ, SHORT_READ, DATA, CORRUPTFS
    case 3: return ("writing", false)  // WRITE
    case 4: return ("flushing", false)  // FSYNC
    case 5: return ("flushing the folder of", false)  // DIR_FSYNC
    case 6: return ("truncating", false)  // TRUNCATE
    case 7: return ("reading the size of", false)  // FSTAT
    case 8, 9, 14, 15: return ("locking", false)  // UNLOCK, RDLOCK, CHECKRESERVEDLOCK, LOCK
    case 10, 23: return ("deleting a file beside", false)  // DELETE, DELETE_NOENT
    case 18, 19, 20, 21: return ("using", true)  // SHMOPEN, SHMSIZE, SHMLOCK, SHMMAP
    case 24: return ("mapping", false)  // MMAP
    default: return ("using", false)
    }
  }

  /// Whether a failure with `code` comes from the operating system, so that
  /// `sqlite3_system_errno` says why (for other codes it holds an older, unrelated value).
  public static func reportsSystemErrno(_ code: Int32) -> Bool {
    [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY].contains(code & 0xFF)
  }

  /// Whether the disk (or file system) is full: `SQLITE_FULL`, or a write refused with `ENOSPC`.
  public var isDiskFull: Bool {
    primaryCode == SQLITE_FULL
      || (primaryCode == SQLITE_IOERR && systemErrno == SQLiteError.noSpaceErrno)
  }

  /// Whether the operating system reported an I/O error (a read, write, sync or lock that failed).
  public var isIOError: Bool { primaryCode == SQLITE_IOERR && !isDiskFull && !isOutOfMemory }

  /// Whether SQLite found the file's content damaged (which a passing read error can also cause).
  public var isCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

  /// Whether SQLite refused to write because the file or the connection is read-only.
  public var isReadOnly: Bool { primaryCode == SQLITE_READONLY }

  /// Whether SQLite could not open (or create) a file.
  public var isCannotOpen: Bool { primaryCode == SQLITE_CANTOPEN }

  public var description: String {
    var text = "SQLite error \(code): \(message)"
    if let sql { text += " - while executing `\(sql)`" }
    if systemErrno != 0 { text += " (errno \(systemErrno))" }
    return text
  }
}
