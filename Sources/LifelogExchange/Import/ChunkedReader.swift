@preconcurrency import Glibc
import LifelogCore

/// Reads a file descriptor in large chunks, so an import of any size holds only one chunk of it.
///
/// Each `read(2)` asks for a whole chunk (1 MiB): a million-row file is a few hundred system
/// calls, and the parsers above walk the bytes of one chunk at a time.
public final class ChunkedReader {
  /// The bytes of the current chunk; valid until the next ``refill()``.
  public private(set) var chunk: UnsafeMutableBufferPointer<UInt8>
  /// How many bytes of ``chunk`` hold data.
  public private(set) var count = 0
  private let descriptor: Int32
  private let ownsDescriptor: Bool
  /// What the input is called in an error: the file's path, or `standard input`.
  private let name: String
  /// Whether the end of the input has been reached.
  public private(set) var isAtEnd = false
  /// Whether ``chunk`` was read by ``firstByte()`` and not yet handed out by ``refill()``.
  private var holdsUnreadChunk = false
  private var heldCount = 0

  /// Reads from `descriptor`; `closing` says whether to close it when done.
  public init(
    descriptor: Int32, closing: Bool, chunkSize: Int = 1 << 20, name: String = "standard input"
  ) {
    self.descriptor = descriptor
    ownsDescriptor = closing
    self.name = name
    chunk = .allocate(capacity: chunkSize)
  }

  /// Opens `path` for reading.
  ///
  /// - Throws: ``InputFileError`` when the file is missing or cannot be read.
  public convenience init(path: String) throws(InputFileError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw InputFileError.opening(path, errno: errno) }
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      close(descriptor)
      throw .unreadable(path, reason: "it is a folder")
    }
    self.init(descriptor: descriptor, closing: true, name: path)
  }

  deinit {
    chunk.deallocate()
    if ownsDescriptor { close(descriptor) }
  }

  /// Replaces ``chunk`` with the next bytes of the input; returns false at the end.
  public func refill() throws(InputFileError) -> Bool {
    if holdsUnreadChunk {
      holdsUnreadChunk = false
      count = heldCount
      return count > 0
    }
    count = 0
    guard !isAtEnd else { return false }
    while true {
      let got = read(descriptor, chunk.baseAddress, chunk.count)
      if got > 0 {
        count = got
        return true
      }
      if got == 0 {
        isAtEnd = true
        return false
      }
      if errno != EINTR { throw .readFailed(name, reason: String(cString: strerror(errno))) }
    }
  }
}

extension ChunkedReader {
  /// The first byte of the input that is not a byte order mark or white space, without consuming
  /// anything (the next ``refill()`` hands out the same chunk); nil for an empty input.
  ///
  /// Call it before anything else has read the input.
  public func firstByte() throws(InputFileError) -> UInt8? {
    guard try refill() else { return nil }
    // Hidden until the next refill(), so a reader starts at the chunk's first byte.
    (heldCount, count, holdsUnreadChunk) = (count, 0, true)
    var offset = heldCount >= 3 && chunk[0] == 0xEF && chunk[1] == 0xBB && chunk[2] == 0xBF ? 3 : 0
    while offset < heldCount, [0x20, 0x09, 0x0A, 0x0D].contains(chunk[offset]) { offset += 1 }
    return offset < heldCount ? chunk[offset] : nil
  }
}

extension ChunkedReader {
  /// The first chunk of the input, without consuming it (as ``firstByte()``).
  public func firstChunk() throws(InputFileError) -> [UInt8] {
    _ = try firstByte()
    return Array(chunk[0..<heldCount])
  }
}
