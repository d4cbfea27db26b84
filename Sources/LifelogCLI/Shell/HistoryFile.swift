@preconcurrency import Glibc
import LifelogCore

/// The shell's history file, read and written through the one descriptor ``ShellHistory``
/// opened with `O_NOFOLLOW`, never again by its path: a symbolic link planted at the path after
/// that open is never followed, so what is typed never lands in the file the link names.
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
  private let descriptor: Int32

  /// Takes over `descriptor`, open for reading and appending; closed when this is released.
  init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }

  /// The lines kept, oldest first.
  ///
  /// The text lines of the file's last ``window`` bytes, at most ``ShellHistory/limit`` of them;
  /// none when the file cannot be read.
  func lines() -> [String] { read().lines }

  /// Appends `line` at the end of the file (the descriptor is `O_APPEND`), at once, so a session
  /// that is killed keeps what was typed; a line that would not be read back is not written.
  func append(_ line: String) {
    guard Self.isKept(Array(line.utf8)) else { return }
    _ = DescriptorWrite.all(Array((line + "\n").utf8), to: descriptor)
  }

  /// Cuts the file back to what ``lines()`` keeps when it holds more.
  ///
  /// The file is replaced atomically (``AtomicFile``): a crash leaves the old file or the new
  /// one. The rename replaces whatever is at the path, a planted link included, and never
  /// follows it.
  func trim() {
    let (lines, isOver) = read()
    guard isOver else { return }
    try? LocalFile.write(Array(lines.map { $0 + "\n" }.joined().utf8), to: path, mode: 0o600)
  }

  /// The kept lines, and whether the file holds more than them (more lines, or lines skipped).
  private func read() -> (lines: [String], isOver: Bool) {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return ([], false) }
    let size = Int(clamping: status.st_size)
    let start = max(0, size - Self.window)
    let bytes = readBytes(from: start)
    var pieces = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    // The read starts in the middle of a line when it does not start at the beginning.
    if start > 0, !pieces.isEmpty { pieces.removeFirst() }
    if pieces.last?.isEmpty == true { pieces.removeLast() }
    let kept = pieces.filter { Self.isKept(Array($0)) }.suffix(ShellHistory.limit)
    let lines = kept.map { String(decoding: $0, as: UTF8.self) }
    return (lines, start > 0 || lines.count < pieces.count)
  }

  /// The bytes from `offset` to the end, at most ``window`` of them; none when the read fails
  /// (or the file grew past the window meanwhile: the history is then not recalled this once).
  private func readBytes(from offset: Int) -> [UInt8] {
    guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { return [] }
    return
      (try? LocalFile.readAll(
        descriptor, path: path, limit: Self.window, stoppingAfterNewline: false)) ?? []
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
