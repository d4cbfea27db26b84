import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Fake programs (a `systemctl` that records its calls) that a test writes and then runs at once.
public enum ExecutableScript {
  /// Writes `text` as an executable at `path` so that running it cannot fail with ETXTBSY.
  ///
  /// Linux refuses to exec a file that any process holds open for writing. `String.write(toFile:
  /// atomically:)` writes through a descriptor from mkstemp, which is not close-on-exec: a
  /// child that another test's thread forks meanwhile inherits it and keeps the file open for
  /// writing for as long as it runs, so the test's own run of the script fails now and then
  /// ("text file busy", seen as a `systemctl` that never ran). Here the descriptor is
  /// O_CLOEXEC, so a child drops it at its own exec, and the file is renamed to `path` only once
  /// closed.
  public static func create(_ text: String, at path: String) throws {
    let partial = path + ".partial"
    let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o700)
    guard descriptor >= 0 else { throw failure("open", partial) }
    var failed: String?
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count, failed == nil {
      let count = bytes[written...].withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress, $0.count)
      }
      if count > 0 {
        written += count
      } else if count < 0 && errno != EINTR {
        failed = "write"
      }
    }
    if failed == nil && fchmod(descriptor, 0o755) != 0 { failed = "fchmod" }
    if close(descriptor) != 0 && failed == nil { failed = "close" }
    if failed == nil && rename(partial, path) != 0 { failed = "rename" }
    if let failed {
      let error = failure(failed, partial)
      unlink(partial)
      throw error
    }
  }

  private static func failure(_ call: String, _ path: String) -> any Error {
    NSError(
      domain: NSPOSIXErrorDomain, code: Int(errno),
      userInfo: [NSLocalizedDescriptionKey: "\(call) \(path): \(String(cString: strerror(errno)))"])
  }
}
