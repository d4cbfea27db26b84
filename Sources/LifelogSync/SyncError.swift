@preconcurrency import Glibc

/// Why a sync, or setting up a remote, failed.
public enum SyncError: Error, Equatable, CustomStringConvertible {
  /// The remote is missing, unmounted, emptied or unreadable (exit 69).
  case remoteUnavailable(String, reason: String)
  /// The remote at this address is not the one this log joined (exit 69).
  case differentRemote(String, expected: String, found: String)
  /// The remote needs a newer lifelog to write to it (exit 78).
  case upgradeRequired(String, minimumVersion: String)
  /// A different batch already has this name on the remote (exit 69).
  case conflict(String)
  /// Another sync of this log is running (exit 75).
  case syncRunning(String)
  /// The lock file beside the log cannot be opened or made (its path, and the `errno`, or nil
  /// when something other than a regular file is there): a fault of the local folder, not of the
  /// remote, so exit 73, or 74 when the disk failed (``isDiskFailure``).
  case lockFileUnusable(String, errno: Int32?)
  /// `--timeout` ran out while talking to the remote (exit 69).
  case timedOut(seconds: Int)
  /// No remote of that name, or none at all (exit 64/65 in the CLI).
  case noSuchRemote(String)
  /// The server refused the token (exit 77).
  case authenticationRefused(String, message: String)
  /// A WebDAV server refused the user name and password (exit 77).
  case passwordRefused(String, user: String)
  /// The passphrase or recovery key does not open the remote's keys (exit 77).
  case wrongKey(String, what: String)
  /// The remote is encrypted and this log is not set up for that, or the other way round (exit 78).
  case encryptionMismatch(String, reason: String)
  /// libsodium is missing or cannot run (exit 78).
  case encryptionUnavailable(String)
  /// Another machine changed the remote's passphrase at the same moment (exit 75).
  case keysChanged(String)

  public var description: String {
    switch self {
    case .remoteUnavailable(let location, let reason):
      "The remote '\(location)' is unavailable: \(reason); check that it is reachable (and mounted, for a folder). "
        + "Nothing was changed"
    case .differentRemote(let location, let expected, let found):
      "'\(location)' now holds a different remote (id \(found), expected \(expected)); if that is intended, "
        + "'lifelog remote remove' and 'lifelog remote add' it again"
    case .upgradeRequired(let location, let version):
      "The remote '\(location)' needs lifelog \(version) or newer to write to it; upgrade lifelog"
    case .conflict(let detail):
      "\(detail); was this log copied from another machine? Nothing was overwritten"
    case .syncRunning(let lockPath):
      "another sync is running (lock '\(lockPath)'); try again when it has finished"
    case .lockFileUnusable(let lockPath, let code):
      "Cannot use the lock file '\(lockPath)' beside the log: \(Self.lockProblem(code)); "
        + "nothing was changed. \(Self.lockRemedy(code))"
    case .timedOut(let seconds):
      "The sync did not finish within \(seconds) s (--timeout); the remote is slow or unreachable, "
        + "and what was done so far is kept"
    case .noSuchRemote(let message):
      message
    case .authenticationRefused(let location, let message):
      "The server '\(location)' refused the token (\(message)); ask its operator for a new one "
        + "('lifelog serve user token NAME') and run 'lifelog remote remove' and 'lifelog remote add' with it"
    case .passwordRefused(let location, let user):
      "The WebDAV server '\(location)' refused the password of user '\(user)' (401); check the user name, "
        + "the password (an app password, for a Nextcloud with two-factor login) and that the account may "
        + "use this folder, then 'lifelog remote remove' and 'lifelog remote add' the remote again"
    case .wrongKey(let location, let what):
      "The \(what) does not open the keys of the encrypted remote '\(location)'; nothing was read or written. "
        + "Check it and try again, or join with the recovery key ('lifelog remote recover')"
    case .encryptionMismatch(let location, let reason):
      "The remote '\(location)' \(reason)"
    case .encryptionUnavailable(let reason):
      "Encrypted remotes cannot be used: \(reason)"
    case .keysChanged(let location):
      "The keys of '\(location)' were changed by another machine at the same moment; nothing was changed here, "
        + "try again"
    }
  }

  /// Whether the local disk failed (an I/O error, a full disk or quota) rather than what sits at
  /// a local path or its permissions: exit 74 rather than 73, as for the log itself.
  public var isDiskFailure: Bool {
    guard case .lockFileUnusable(_, let code?) = self else { return false }
    return code == EIO || code == ENOSPC || code == EDQUOT
  }

  private static func lockProblem(_ code: Int32?) -> String {
    guard let code else { return "it is not a regular file (a FIFO or a device is there)" }
    if code == ELOOP { return "it is a symbolic link, which lifelog does not follow" }
    if code == EISDIR { return "it is a folder, not a regular file" }
    return String(cString: strerror(code))
  }

  /// What to do about the lock file: removing what is at its path is the remedy only when
  /// something is there; a wrong folder path or a process out of descriptors needs its own.
  private static func lockRemedy(_ code: Int32?) -> String {
    switch code {
    case EIO: "Check the disk (see `dmesg`) and try again"
    case ENOSPC, EDQUOT: "Free space on its disk and try again"
    case EACCES, EPERM, EROFS: "Check that the log's folder is writable, then try again"
    case ENOENT, ENOTDIR, ENAMETOOLONG:
      "The log's folder path is wrong: check the --db path (or LIFELOG_DB), then try again"
    case EMFILE, ENFILE:
      "Too many files are open: close other programs or raise the limit (`ulimit -n`), then try again"
    default: "It is lifelog's own lock: remove what is at that path and try again"
    }
  }
}
