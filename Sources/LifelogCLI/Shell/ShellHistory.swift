@preconcurrency import Glibc
import LifelogCore

/// The file that keeps the shell's history between sessions, and how much of it.
///
/// `$XDG_STATE_HOME/lifelog/history`, falling back to `~/.local/state/lifelog/history`. What
/// people type can be private (notes about meals and medication), so the folder is created 0700
/// and the file 0600, as bash does for its history.
struct ShellHistory {
  /// Lines kept, in memory and in the file.
  static let limit = 1000

  let path: String

  /// The history file for this environment; nil when neither XDG_STATE_HOME nor HOME is set.
  init?(environment: [String: String]) {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      path = state + "/lifelog/history"
    } else if let home = environment["HOME"], !home.isEmpty {
      path = home + "/.local/state/lifelog/history"
    } else {
      return nil
    }
  }

  /// Creates the missing folders (0700) and the file (0600), makes an existing file 0600, and
  /// opens it: every later read and write goes through that descriptor (``HistoryFile``).
  ///
  /// A symbolic link at the path is refused, not followed: planted there, it would have the
  /// shell append what is typed to the file it names (and make that file 0600). Something that is
  /// not a regular file (a FIFO, a device) is refused too, and never blocks the open.
  ///
  /// - Throws: a ``ConfigurationError`` naming the path that could not be made.
  func open() throws -> HistoryFile {
    do {
      try LocalFile.createFolders(above: path)
    } catch {
      throw ConfigurationError(
        "Cannot create '\(error.path)' for the shell history: \(error.reason)")
    }
    let descriptor = Glibc.open(
      path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      if errno == ELOOP {
        throw ConfigurationError(
          "The shell history '\(path)' is a symbolic link, which lifelog does not follow; "
            + "remove it")
      }
      throw ConfigurationError(
        "Cannot open the shell history '\(path)': \(String(cString: strerror(errno)))")
    }
    let file = HistoryFile(descriptor: descriptor, path: path)
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw ConfigurationError(
        "The shell history '\(path)' is not a regular file; remove it")
    }
    fchmod(descriptor, 0o600)
    return file
  }
}
