@preconcurrency import Glibc

/// How much room is left on the file system holding a file (for a "disk full" message).
enum FreeSpace {
  /// Kilobytes an unprivileged process may still write in the folder holding `path`; nil when
  /// the system does not say.
  static func kilobytes(near path: String) -> UInt64? {
    let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    var info = statvfs()
    guard statvfs(folder.isEmpty ? "/" : folder, &info) == 0 else { return nil }
    let (bytes, overflow) = UInt64(info.f_bavail).multipliedReportingOverflow(
      by: UInt64(info.f_frsize))
    return overflow ? nil : bytes / 1024
  }
}
