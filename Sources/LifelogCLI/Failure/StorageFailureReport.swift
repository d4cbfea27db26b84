@preconcurrency import Glibc
import LifelogCore
import LifelogSQLite

/// A failure of the disk or of the log's file, told in words.
///
/// The message says what happened, whether the change is in the log and what to do; the code is
/// its sysexits code. SQLite's own report is kept in ``detail`` for `lifelog --verbose`, never in
/// the message.
///
/// What is said is found out, not assumed: after a failed `COMMIT` the log is read back by a
/// fresh connection (``WriteMark/isInLog(at:)``), and content SQLite reads as damaged is called
/// damaged only when `PRAGMA quick_check` agrees (a passing read error looks the same).
struct StorageFailureReport {
  let code: Int32
  let message: String
  /// SQLite's code and text, for `--verbose`.
  let detail: String

  /// The report for `error`, or nil when it is not a storage failure.
  ///
  /// Closes the context's log first when it must read the log back.
  static func make(_ error: any Error, context: Context) -> StorageFailureReport? {
    switch error {
    case StoreError.commitFailed(let path, let cause, let mark):
      context.closeStore()
      return afterFailedCommit(path: path, cause: cause, mark: mark)
    case StoreError.storage(let path, let cause):
      return storage(path: path, cause: cause, context: context)
    case StoreError.busy(let path):
      return busy(path: path)
    case let cause as SQLiteError:
      guard let path = try? context.databasePath else { return nil }
      if cause.isBusy { return busy(path: path) }
      guard case .storage(let path, let cause) = StoreError.wrapping(cause, path: path) else {
        return nil
      }
      return storage(path: path, cause: cause, context: context)
    default:
      return nil
    }
  }

  /// A `COMMIT` that failed: says whether the change is in the log, by reading it back.
  private static func afterFailedCommit(
    path: String, cause: SQLiteError, mark: WriteMark?
  ) -> StorageFailureReport {
    let what = StorageFailureWords(cause, path: path)
    guard let mark, let saved = readBack(mark, at: path) else {
      if cause.isDiskFull { return diskFull(path: path, cause: cause, nothingWritten: false) }
      return StorageFailureReport(
        code: ExitCode.ioError,
        message:
          "\(what.happened.capitalizedFirst), and lifelog cannot tell if the log holds the "
          + "change; look with 'lifelog list' before running the command again, and "
          + StorageFailureWords.advice,
        detail: cause.description)
    }
    guard saved else {
      if cause.isDiskFull { return diskFull(path: path, cause: cause) }
      return StorageFailureReport(
        code: ExitCode.ioError,
        message:
          "Nothing was saved: \(what.happened); \(StorageFailureWords.advice), then run the "
          + "command again",
        detail: cause.description)
    }
    let change: String
    switch mark {
    case .stepRecorded(_, let description): change = "The change was saved (\(description))"
    case .stepUndone(_, let description):
      change = "The undo was saved (it reverted '\(description)')"
    case .remoteAdded(let name, _): change = "The remote '\(name)' was added"
    }
    return StorageFailureReport(
      code: ExitCode.ioError,
      message:
        "\(change), but \(what.happened); do not run the command again; "
        + StorageFailureWords.advice,
      detail: cause.description)
  }

  /// How many times the read-back is tried: the disk that failed the `COMMIT` may fail the
  /// next reads too, and a failure that passes must not leave the user without an answer.
  static let readBackAttempts = 10

  /// Whether the write of `mark` is in the log, read by a fresh connection; nil when every
  /// attempt failed to read it.
  private static func readBack(_ mark: WriteMark, at path: String) -> Bool? {
    for attempt in 0..<readBackAttempts {
      if let saved = try? mark.isInLog(at: path) { return saved }
      if attempt + 1 < readBackAttempts { usleep(20_000) }
    }
    return nil
  }

  private static func storage(
    path: String, cause: SQLiteError, context: Context
  ) -> StorageFailureReport {
    if cause.isOutOfMemory {
      return StorageFailureReport(
        code: ExitCode.temporaryFailure,
        message:
          "The system ran out of memory while lifelog was using the log '\(path)'; nothing was "
          + "changed. Close programs that use much memory, then run again",
        detail: cause.description)
    }
    if cause.isDiskFull { return diskFull(path: path, cause: cause) }
    if cause.isCorruption {
      context.closeStore()
      return damageChecked(path: path, cause: cause)
    }
    if cause.isReadOnly || (cause.isCannotOpen && cause.systemErrno != EIO) {
      return readOnly(path: path, cause: cause)
    }
    return ioError(cause, path: path, detail: cause.description)
  }

  private static func ioError(
    _ cause: SQLiteError, path: String, detail: String
  ) -> StorageFailureReport {
    let what = StorageFailureWords(cause, path: path)
    return StorageFailureReport(
      code: ExitCode.ioError,
      message:
        "\(what.happened.capitalizedFirst); nothing was changed. "
        + "\(StorageFailureWords.advice.capitalizedFirst), then run again",
      detail: detail)
  }

  /// - Parameter nothingWritten: whether the write is known to have left nothing; when it is
  ///   not (a failed `COMMIT` with nothing to read back), the message says to look first.
  private static func diskFull(
    path: String, cause: SQLiteError, nothingWritten: Bool = true
  ) -> StorageFailureReport {
    let free = FreeSpace.kilobytes(near: path).map { ", \($0) KB free" } ?? ""
    let outcome =
      nothingWritten
      ? "nothing was written"
      : "its last change may or may not have been saved: look with 'lifelog list' before adding again"
    return StorageFailureReport(
      code: ExitCode.ioError,
      message:
        "The disk holding the log '\(path)' is full\(free): free space and run again; \(outcome)",
      detail: cause.description)
  }

  /// Damage is reported only when `quick_check` confirms it; else the read failed for a moment.
  private static func damageChecked(path: String, cause: SQLiteError) -> StorageFailureReport {
    switch LogIntegrity.confirmedCheck(path) {
    case .intact:
      return StorageFailureReport(
        code: ExitCode.ioError,
        message:
          "A read of the log '\(path)' failed (the data read looked damaged, but a check of the "
          + "whole log finds it intact); nothing was changed. Run again, and check the disk "
          + "(see `dmesg`) if it happens again",
        detail: cause.description)
    case .damaged(let finding):
      return StorageFailureReport(
        code: ExitCode.dataError,
        message:
          "The log '\(path)' is damaged; run 'lifelog check' to see what is damaged, and "
          + "'lifelog recover' to build a new log from what can still be read",
        detail: cause.description + "\nquick_check: " + finding)
    case .unreadable(let error):
      return ioError(
        error, path: path, detail: cause.description + "\nquick_check: " + error.description)
    }
  }

  private static func readOnly(path: String, cause: SQLiteError) -> StorageFailureReport {
    let folder =
      path.lastIndex(of: "/").map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
    for file in [path, folder] where access(file, W_OK) != 0 && errno != ENOENT {
      let reason = String(cString: strerror(errno))
      return StorageFailureReport(
        code: ExitCode.cannotCreate,
        message:
          "The log '\(path)' cannot be written: '\(file)' is read-only (\(reason)); make it "
          + "writable, or point --db at a log you can write. Nothing was changed",
        detail: cause.description)
    }
    let reason = cause.systemErrno != 0 ? " (\(String(cString: strerror(cause.systemErrno))))" : ""
    if [EACCES, EPERM, EROFS].contains(cause.systemErrno) {
      return StorageFailureReport(
        code: ExitCode.cannotCreate,
        message:
          "The log '\(path)' cannot be created or written\(reason); make its folder writable, or "
          + "point --db at a log you can write. Nothing was changed",
        detail: cause.description)
    }
    return StorageFailureReport(
      code: ExitCode.ioError,
      message:
        "The log '\(path)' could not be opened for writing although its permissions allow it: "
        + "the system refused for a moment\(reason); nothing was changed. Check the disk (see "
        + "`dmesg`), then run again",
      detail: cause.description)
  }

  private static func busy(path: String) -> StorageFailureReport {
    let holder = LockHolder.pid(of: path).map { " (pid \($0))" } ?? ""
    return StorageFailureReport(
      code: ExitCode.temporaryFailure,
      message:
        "The log '\(path)' is busy: another lifelog\(holder) has held its lock for too long; "
        + "nothing was changed; try again when it has finished",
      detail: StoreError.busy(path: path).description)
  }
}

extension String {
  /// The text with its first letter in upper case (a clause that starts a sentence).
  var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
