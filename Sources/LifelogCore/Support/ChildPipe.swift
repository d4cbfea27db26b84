@preconcurrency import Glibc

/// The pipe a parent reads a child's output from.
public enum ChildPipe {
  /// A new pipe with both ends closed on exec, so the child sees only the copies `dup2` puts on
  /// its stdout (or stderr) and never holds the write end open past its own exit; nil when no
  /// pipe can be made (`errno` says why).
  public static func make() -> (readEnd: Int32, writeEnd: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0,
      fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0
    else { return nil }
    return (ends[0], ends[1])
  }
}
