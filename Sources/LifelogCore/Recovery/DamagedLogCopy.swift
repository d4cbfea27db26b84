@preconcurrency import Glibc

/// A private copy of a damaged log (its file and its WAL) that recovery reads, so the damaged
/// files themselves are never written: SQLite writes to a log it merely reads (it rebuilds the
/// WAL index, and the last connection to close checkpoints the WAL into the file).
///
/// When the copy's first 100 bytes are not an SQLite header, they are rebuilt (``rebuildHeader(pageSize:)``):
/// the rest of page 1 holds the table of tables, which is often still whole.
struct DamagedLogCopy {
  /// SQLite's magic string, the header's first 16 bytes.
  static let magic: [UInt8] = Array("SQLite format 3".utf8) + [0]
  /// The page sizes tried, most likely first (lifelog never sets one: SQLite's default is 4096).
  static let pageSizes = [4096, 1024, 2048, 8192, 16384, 32768, 65536]

  let path: String
  /// Whether the damaged log had a WAL (copied beside the copy).
  let hasWAL: Bool

  /// Copies `source` and its `-wal` (when there is one) to `path` and `path-wal`.
  init(of source: String, at path: String) throws(LocalFileError) {
    self.path = path
    DamagedLogCopy.remove(path)
    try DamagedLogCopy.copy(source, to: path)
    hasWAL = access(source + "-wal", F_OK) == 0
    if hasWAL { try DamagedLogCopy.copy(source + "-wal", to: path + "-wal") }
  }

  /// Whether the copy starts with SQLite's magic string.
  var hasHeader: Bool {
    guard let bytes = try? read(count: 16) else { return false }
    return bytes == DamagedLogCopy.magic
  }

  /// The page size the WAL's header names (it is kept apart from the file's header), if any.
  var walPageSize: Int? {
    guard hasWAL, let bytes = try? DamagedLogCopy.read(path + "-wal", count: 12), bytes.count == 12
    else { return nil }
    let size = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
    return DamagedLogCopy.pageSizes.contains(size) ? size : nil
  }

  /// Writes a plain header for pages of `pageSize` bytes over the copy's first 100 bytes: no
  /// free pages, UTF-8, the size taken from the file's length (SQLite's rule when the header's
  /// counters disagree), WAL mode when a WAL was copied.
  func rebuildHeader(pageSize: Int) throws(LocalFileError) {
    var header = [UInt8](repeating: 0, count: 100)
    header.replaceSubrange(0..<16, with: DamagedLogCopy.magic)
    let size = pageSize == 65536 ? 1 : pageSize
    header[16] = UInt8(size >> 8)
    header[17] = UInt8(size & 0xFF)
    header[18] = hasWAL ? 2 : 1
    header[19] = hasWAL ? 2 : 1
    header[21] = 64
    header[22] = 32
    header[23] = 32
    header[27] = 1  // change counter
    header[43] = 1  // schema cookie
    header[47] = 4  // schema format
    header[59] = 1  // UTF-8
    header[95] = 2  // "version valid for" differs from the change counter: size from the length
    let descriptor = open(path, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(path) }
    defer { close(descriptor) }
    let written = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 100, 0) }
    guard written == 100 else { throw .system(path) }
  }

  /// Deletes the copy and its WAL and shared-memory files.
  func remove() { DamagedLogCopy.remove(path) }

  static func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
  }

  private func read(count: Int) throws(LocalFileError) -> [UInt8] {
    try DamagedLogCopy.read(path, count: count)
  }

  private static func read(_ path: String, count: Int) throws(LocalFileError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(path) }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: count)
    let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
    guard got >= 0 else { throw .system(path) }
    return Array(bytes.prefix(got))
  }

  /// Copies a file byte for byte (mode 0600: a log is private).
  private static func copy(_ source: String, to target: String) throws(LocalFileError) {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw .system(source) }
    defer { close(input) }
    let output = open(target, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard output >= 0 else { throw .system(target) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var failure: LocalFileError?
    var unreadableBlocks = 0
    copying: while true {
      var count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count < 0 {
        // A block the disk cannot read becomes zeros: SQLite then sees that page as damaged and
        // the rows on the other pages are still read.
        unreadableBlocks += 1
        guard unreadableBlocks <= 4096, lseek(input, 4096, SEEK_CUR) >= 0 else {
          failure = .system(source)
          break
        }
        for index in 0..<4096 { chunk[index] = 0 }
        count = 4096
      }
      if count == 0 { break }
      var offset = 0
      while offset < count {
        let written = chunk.withUnsafeBytes {
          Glibc.write(output, $0.baseAddress.map { $0 + offset }, count - offset)
        }
        if written < 0, errno == EINTR { continue }
        if written <= 0 {
          failure = .system(target)
          break copying
        }
        offset += written
      }
    }
    if close(output) != 0, failure == nil { failure = .system(target) }
    if let failure { throw failure }
  }
}
