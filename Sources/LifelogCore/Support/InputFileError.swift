@preconcurrency import Glibc

/// An input file that cannot be read at all (as opposed to rows in it that are wrong).
public enum InputFileError: Error, Equatable, CustomStringConvertible {
  /// The file does not exist (exit 66).
  case missing(String)
  /// The file exists but cannot be read.
  case unreadable(String, reason: String)
  /// A read failed part way (an I/O error): nothing was imported (exit 74).
  case readFailed(String, reason: String)
  /// The file is there, but the system failed to open it (an I/O error, no memory): the disk or
  /// the system is at fault, not the path (exit 74).
  case openFailed(String, reason: String)

  /// The error of an `open` of `path` that failed with `errno`: missing (no such file or
  /// folder), unreadable (the path or its permissions are wrong), or failed (the disk or the
  /// system failed, so running again may work).
  public static func opening(_ path: String, errno code: Int32) -> InputFileError {
    let reason = String(cString: strerror(code))
    switch code {
    case ENOENT: return .missing(path)
    case EACCES, EPERM, ENOTDIR, ELOOP, ENAMETOOLONG, EISDIR, ENXIO, ENODEV:
      return .unreadable(path, reason: reason)
    default: return .openFailed(path, reason: reason)
    }
  }

  public var description: String {
    switch self {
    case .missing(let path): "Cannot read '\(path)': no such file; check the path"
    case .unreadable(let path, let reason): "Cannot read '\(path)': \(reason)"
    case .readFailed(let path, let reason):
      "Reading '\(path)' failed part way (\(reason)); nothing was imported. Check the disk (see "
        + "`dmesg`) and run again"
    case .openFailed(let path, let reason):
      "Opening '\(path)' failed (\(reason)); nothing was imported. Check the disk (see `dmesg`) "
        + "and run again"
    }
  }
}
