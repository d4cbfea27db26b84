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
  /// - Throws: ``InputError`` naming a missing folder or a permission problem.
  init(replacing path: String) throws(InputError) {
    try ReportFile.checkWritable(path)
    self.path = path
    var mode: mode_t = 0o600
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { mode = info.st_mode & 0o7777 }
    do {
      file = try AtomicFile(replacing: path, mode: mode)
    } catch {
      throw InputError("Cannot write '\(path)': \(error.reason); check the folder's permissions")
    }
  }

  /// Appends `bytes` to the file.
  func write(_ bytes: [UInt8]) throws(InputError) {
    do { try file.write(bytes) } catch { throw failure(error) }
  }

  /// Flushes the file to disk and renames it over the target.
  func commit() throws(InputError) {
    do { try file.commit() } catch { throw failure(error) }
  }

  private func failure(_ error: LocalFileError) -> InputError {
    InputError("Cannot write '\(path)': \(error.reason)")
  }
}
