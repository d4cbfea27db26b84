@preconcurrency import Glibc

/// A file written in pieces and put in place atomically.
///
/// The bytes go to a new temporary file beside the target, which ``commit()`` flushes to disk,
/// gives its mode and renames over the target. A reader (or a crash) never sees half a file; a
/// file never committed is removed.
///
/// The one writer of every file lifelog replaces whole (``LocalFile/write(_:to:mode:)``, a report
/// or export `--output`). The temporary file is `.<name>.tmp-<128 random bits>` in the target's
/// folder (a rename never crosses file systems), created with `O_EXCL | O_NOFOLLOW` and mode 0600:
/// nobody can guess its name ahead, and a file or link planted there is never opened, followed,
/// truncated or chmodded; the create fails instead and another name is drawn.
public final class AtomicFile {
  /// How many random names are tried before giving up (each clash is already a 2⁻¹²⁸ chance).
  static let attempts = 8

  public let path: String
  private let temporary: String
  private let mode: mode_t
  private var descriptor: Int32

  /// Starts replacing `path`; the file gets `mode` (whatever the umask) when committed.
  ///
  /// - Throws: ``LocalFileError`` naming `path` when no temporary file can be made beside it.
  public init(replacing path: String, mode: mode_t) throws(LocalFileError) {
    self.path = path
    self.mode = mode
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = Self.shortened(slash.map { String(path[path.index(after: $0)...]) } ?? path)
    var random = SystemRandomNumberGenerator()
    var failure = LocalFileError(.system(EEXIST), path)
    for _ in 0..<Self.attempts {
      let candidate =
        "\(folder).\(name).tmp-\(Self.hex(random.next()))\(Self.hex(random.next()))"
      let opened = open(
        candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
      if opened >= 0 {
        temporary = candidate
        descriptor = opened
        return
      }
      let code = errno
      failure = LocalFileError(.system(code), path)
      guard code == EEXIST else { break }
    }
    throw failure
  }

  deinit {
    if descriptor >= 0 {
      close(descriptor)
      unlink(temporary)
    }
  }

  /// Appends `bytes` to the file.
  public func write(_ bytes: [UInt8]) throws(LocalFileError) {
    guard DescriptorWrite.all(bytes, to: descriptor) else { throw .system(path) }
  }

  /// Gives the file its mode, flushes it to disk and renames it over the target.
  public func commit() throws(LocalFileError) {
    var failure: LocalFileError?
    if fchmod(descriptor, mode) != 0 { failure = .system(path) }
    if failure == nil, fsync(descriptor) != 0 { failure = .system(path) }
    if close(descriptor) != 0, failure == nil { failure = .system(path) }
    descriptor = -1
    if failure == nil, rename(temporary, path) != 0 { failure = .system(path) }
    if let failure {
      unlink(temporary)
      throw failure
    }
  }

  /// The target's name cut to at most 100 UTF-8 bytes (whole characters), so the temporary
  /// name stays within the 255 bytes a file name may have.
  private static func shortened(_ name: String) -> String {
    var bytes = 0
    return String(
      name.prefix { character in
        bytes += character.utf8.count
        return bytes <= 100
      })
  }

  /// 16 lower-case hex digits, zero-padded, so every name has the same length.
  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
