@preconcurrency import Glibc
import LifelogCore

/// A file written in pieces and put in place atomically: the bytes go to a temporary file beside
/// the target, which is flushed to disk and renamed over it by ``commit()``.
///
/// A reader (or a crash) never sees half a file; a file never committed is removed.
///
/// A new file is created readable only by its owner (the log is health data); a file that is
/// replaced keeps its permissions.
final class OutputFile {
  let path: String
  private let temporary: String
  private var descriptor: Int32

  /// Starts writing `path` (`--output`).
  ///
  /// - Throws: ``InputError`` naming a missing folder, ``OutputWriteError`` when the file
  ///   cannot be created.
  init(replacing path: String) throws {
    try ReportFile.checkWritable(path)
    self.path = path
    var mode: mode_t = 0o600
    var info = stat()
    if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    temporary = ReportFile.folder(of: path) + "/.\(name).\(getpid()).tmp"
    descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw OutputWriteError(path: path, code: errno, creating: errno != EIO && errno != ENOSPC)
    }
    fchmod(descriptor, mode)
  }

  deinit {
    if descriptor >= 0 {
      close(descriptor)
      unlink(temporary)
    }
  }

  /// Appends `bytes` to the file.
  func write(_ bytes: [UInt8]) throws(OutputWriteError) {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        buffer.baseAddress.map { Glibc.write(descriptor, $0 + written, buffer.count - written) }
          ?? 0
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(errno)
      }
      written += count
    }
  }

  /// Flushes the file to disk and renames it over the target.
  func commit() throws(OutputWriteError) {
    var failure: Int32 = 0
    if fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    descriptor = -1
    if failure == 0, rename(temporary, path) != 0 { failure = errno }
    guard failure == 0 else {
      unlink(temporary)
      throw self.failure(failure)
    }
  }

  private func failure(_ code: Int32) -> OutputWriteError {
    OutputWriteError(path: path, code: code)
  }
}
