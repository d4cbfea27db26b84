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

  /// Creates the missing folders (0700) and opens the file (``HistoryFile``, which creates it
  /// 0600, makes an existing one 0600, and refuses a symbolic link or something that is not a
  /// regular file there): every later read and write goes through that.
  ///
  /// - Throws: a ``ConfigurationError`` naming the path that could not be made or opened.
  func open() throws -> HistoryFile {
    do {
      try LocalFile.createFolders(above: path)
    } catch {
      throw ConfigurationError(
        "Cannot create '\(error.path)' for the shell history: \(error.reason)")
    }
    return try HistoryFile(path: path)
  }
}
