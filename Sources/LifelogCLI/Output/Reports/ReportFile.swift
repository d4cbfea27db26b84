@preconcurrency import Glibc
import LifelogCore

/// Writes a finished report to a file atomically: into a temporary file beside it, flushed to
/// disk, then renamed over the target, so a reader (or a crash) never sees half a report.
///
/// A new file is created readable only by its owner (a meal diary is health data, like the log
/// itself); a file that is replaced keeps its permissions.
enum ReportFile {
  /// Checks that `path` can be written to: its folder exists and it is not a folder itself.
  ///
  /// - Throws: ``InputError`` naming the missing folder.
  static func checkWritable(_ path: String) throws(InputError) {
    guard !path.isEmpty else {
      throw InputError("--output needs a file name, such as 'report.txt'")
    }
    let folder = self.folder(of: path)
    var info = stat()
    guard stat(folder, &info) == 0 else {
      throw InputError(
        "Cannot write '\(path)': the folder '\(folder)' does not exist; create it first or choose another path"
      )
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw InputError("Cannot write '\(path)': '\(folder)' is not a folder")
    }
    if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      throw InputError("Cannot write '\(path)': it is a folder; give a file name inside it")
    }
  }

  /// Writes `text` to `path`, replacing it whole.
  static func write(_ text: String, to path: String) throws {
    let file = try OutputFile(replacing: path)
    try file.write(Array(text.utf8))
    try file.commit()
  }

  /// The folder part of `path`: `.` for a bare name, `/` for a file at the root.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let folder = String(path[..<slash])
    return folder.isEmpty ? "/" : folder
  }
}
