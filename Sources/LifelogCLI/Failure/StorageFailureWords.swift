@preconcurrency import Glibc
import LifelogSQLite

/// An SQLite I/O failure in words: which operation on which file failed, and the system's reason.
///
/// SQLite's extended code names the operation (a read, a write, a flush, the shared-memory
/// file); `sqlite3_system_errno` gives the reason (`Input/output error`).
struct StorageFailureWords {
  /// What to do about a disk that reported an error.
  static let advice = "check the disk (see `dmesg`)"

  /// `the disk reported an error (Input/output error) while flushing '/path/lifelog.db'`.
  let happened: String

  init(_ cause: SQLiteError, path: String) {
    if cause.isOutOfMemory {
      happened = "the system ran out of memory while saving to '\(path)'"
      return
    }
    let reason = cause.systemErrno != 0 ? " (\(String(cString: strerror(cause.systemErrno))))" : ""
    let (verb, sharedMemory) = cause.failedOperation
    happened =
      "the disk reported an error\(reason) while \(verb) '\(path)\(sharedMemory ? "-shm" : "")'"
  }
}
