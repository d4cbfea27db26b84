@preconcurrency import Glibc
import LifelogCore

/// An `--output` file, written in pieces through ``AtomicFile`` (a random temporary name beside
/// the target, never following a link, renamed over it by ``commit()``), with the CLI's errors.
///
/// A new file is created readable only by its owner (the log is health data); a regular file
/// that is replaced keeps its permissions.
final class OutputFile {
  let path: String
  private let file: AtomicFile

  /// Starts writing `path` (`--output`).
  ///
  /// - Throws: ``InputError`` naming a missing folder, ``OutputWriteError`` when the file
  ///   cannot be created.
  init(replacing path: String) throws {
    try ReportFile.checkWritable(path)
    self.path = path
    var mode: mode_t = 0o600
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { mode = info.st_mode & 0o7777 }
    do {
      file = try AtomicFile(replacing: path, mode: mode)
    } catch {
      let code = error.systemErrno ?? EIO
      throw OutputWriteError(path: path, code: code, creating: code != EIO && code != ENOSPC)
    }
  }

  /// Appends `bytes` to the file.
  func write(_ bytes: [UInt8]) throws(OutputWriteError) {
    do { try file.write(bytes) } catch { throw failure(error) }
  }

  /// Flushes the file to disk and renames it over the target.
  func commit() throws(OutputWriteError) {
    do { try file.commit() } catch { throw failure(error) }
  }

  private func failure(_ error: LocalFileError) -> OutputWriteError {
    OutputWriteError(path: path, code: error.systemErrno ?? EIO)
  }
}
