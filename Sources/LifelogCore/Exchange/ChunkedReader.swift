@preconcurrency import Glibc

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

/// An input file that cannot be read at all (as opposed to rows in it that are wrong).
public enum InputFileError: Error, Equatable, CustomStringConvertible {
  /// The file does not exist (exit 66).
  case missing(String)
  /// The file exists but cannot be read.
  case unreadable(String, reason: String)
  /// A read failed part way (an I/O error): nothing was imported (exit 74).
  case readFailed(String, reason: String)
  /// The file is there, but the system failed to open it (an I/O error, no memory): the disk or
  /// the system is at fault, not the path (exit 74).
  case openFailed(String, reason: String)

  /// The error of an `open` of `path` that failed with `errno`: missing (no such file or
  /// folder), unreadable (the path or its permissions are wrong), or failed (the disk or the
  /// system failed, so running again may work).
  public static func opening(_ path: String, errno code: Int32) -> InputFileError {
    let reason = String(cString: strerror(code))
    switch code {
    case ENOENT: return .missing(path)
    case EACCES, EPERM, ENOTDIR, ELOOP, ENAMETOOLONG, EISDIR, ENXIO, ENODEV:
      return .unreadable(path, reason: reason)
    default: return .openFailed(path, reason: reason)
    }
  }

  public var description: String {
    switch self {
    case .missing(let path): "Cannot read '\(path)': no such file; check the path"
    case .unreadable(let path, let reason): "Cannot read '\(path)': \(reason)"
    case .readFailed(let path, let reason):
      "Reading '\(path)' failed part way (\(reason)); nothing was imported. Check the disk (see "
        + "`dmesg`) and run again"
    case .openFailed(let path, let reason):
      "Opening '\(path)' failed (\(reason)); nothing was imported. Check the disk (see `dmesg`) "
        + "and run again"
    }
  }
}
