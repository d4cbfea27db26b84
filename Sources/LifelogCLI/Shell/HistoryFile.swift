@preconcurrency import Glibc
import LifelogCore

/// The shell's history file, read and written through a descriptor opened with `O_NOFOLLOW`,
/// never by following its path: a symbolic link planted at the path is never followed, so what
/// is typed never lands in the file the link names.
///
/// The file at the path may be replaced while the shell runs (another shell's ``trim()`` renames
/// a new file over it): before each append and trim the descriptor's file is compared with the
/// one at the path (`lstat`, never following a link), and the path is opened again, by the same
/// rules, when they differ. Otherwise the lines would go to the unlinked old file, and a trim
/// would write that old copy back over what other shells added.
///
/// Outside input, so bounded: only the last ``window`` bytes are read (a huge file costs no more
/// memory than that), at most ``ShellHistory/limit`` lines are kept, and a line that is longer
/// than ``longestLine`` or is not text (invalid UTF-8, control characters, a binary file) is
/// skipped, neither recalled nor written back.
final class HistoryFile {
  /// 1 MiB: a thousand lines of a thousand bytes each.
  static let window = 1 << 20
  /// 4 KiB: far longer than any command typed by hand.
  static let longestLine = 1 << 12

  let path: String
  private var descriptor: Int32

  /// Opens the history at `path`, creating it 0600, and makes an existing file 0600.
  ///
  /// - Throws: a ``ConfigurationError`` when a link or something that is not a regular file is
  ///   there, or the file cannot be opened.
  init(path: String) throws {
    descriptor = try Self.open(path)
    self.path = path
  }

  /// Takes over `descriptor`, open for reading and appending; closed when this is released.
  init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }

  /// Opens `path` for reading and appending: a symbolic link is refused, not followed (planted
  /// there, it would have the shell append what is typed to the file it names and make that file
  /// 0600); something that is not a regular file (a FIFO, a device) is refused too, and never
  /// blocks the open.
  private static func open(_ path: String) throws -> Int32 {
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
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw ConfigurationError(
        "The shell history '\(path)' is not a regular file; remove it")
    }
    fchmod(descriptor, 0o600)
    return descriptor
  }

  /// The lines kept, oldest first.
  ///
  /// The text lines of the file's last ``window`` bytes, at most ``ShellHistory/limit`` of them;
  /// none when the file cannot be read.
  func lines() -> [String] { read()?.lines ?? [] }

  /// Appends `line` at the end of the file now at the path (the descriptor is `O_APPEND`), at
  /// once, so a session that is killed keeps what was typed; a line that would not be read back
  /// is not written, nor one when the path now holds a link or something else than a file.
  func append(_ line: String) {
    guard Self.isKept(Array(line.utf8)), followPath() else { return }
    _ = DescriptorWrite.all(Array((line + "\n").utf8), to: descriptor)
  }

  /// Cuts the file back to what ``lines()`` keeps when it holds more; leaves it as it is when
  /// it cannot be read (a rewrite from a failed read would empty the history).
  ///
  /// The file is replaced atomically (``AtomicFile``): a crash leaves the old file or the new
  /// one. The rename replaces whatever is at the path, a planted link included, and never
  /// follows it.
  func trim() {
    guard followPath(), let (lines, isOver) = read(), isOver else { return }
    try? LocalFile.write(Array(lines.map { $0 + "\n" }.joined().utf8), to: path, mode: 0o600)
  }

  /// Makes the descriptor that of the file now at the path, reopening the path when the file
  /// there is another one; false when the path cannot be opened by ``open(_:)``'s rules.
  private func followPath() -> Bool {
    var held = stat()
    var atPath = stat()
    if fstat(descriptor, &held) == 0, lstat(path, &atPath) == 0,
      held.st_ino == atPath.st_ino, held.st_dev == atPath.st_dev
    {
      return true
    }
    guard let reopened = try? Self.open(path) else { return false }
    close(descriptor)
    descriptor = reopened
    return true
  }

  /// The kept lines, and whether the file holds more than them (more lines, or lines skipped);
  /// nil when the file cannot be read.
  private func read() -> (lines: [String], isOver: Bool)? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    let size = Int(clamping: status.st_size)
    let start = max(0, size - Self.window)
    guard let bytes = readWindow(from: start) else { return nil }
    var pieces = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    // The read starts in the middle of a line when it does not start at the beginning.
    if start > 0, !pieces.isEmpty { pieces.removeFirst() }
    if pieces.last?.isEmpty == true { pieces.removeLast() }
    let kept = pieces.filter { Self.isKept(Array($0)) }.suffix(ShellHistory.limit)
    let lines = kept.map { String(decoding: $0, as: UTF8.self) }
    return (lines, start > 0 || lines.count < pieces.count)
  }

  /// At most ``window`` bytes from `offset` on; nil when a read fails.
  ///
  /// What the file grew by since its size was taken is left unread, not an error.
  private func readWindow(from offset: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: Self.window)
    var filled = 0
    while filled < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(
          descriptor, $0.baseAddress.map { $0 + filled }, $0.count - filled,
          off_t(offset + filled))
      }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { break }
      filled += count
    }
    return Array(bytes[0..<filled])
  }

  /// Whether `bytes` is a line worth recalling: not empty, not longer than ``longestLine``,
  /// valid UTF-8 without control characters (a tab is text).
  static func isKept(_ bytes: [UInt8]) -> Bool {
    guard !bytes.isEmpty, bytes.count <= longestLine,
      let text = String(validating: bytes, as: UTF8.self)
    else { return false }
    return !text.unicodeScalars.contains {
      $0 != "\t" && ($0.properties.generalCategory == .control)
    }
  }
}
