@preconcurrency import Glibc

/// A local file or folder could not be read, written or made: which path, and why.
public struct LocalFileError: Error, CustomStringConvertible, Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    /// The C library refused, with this `errno`.
    case system(Int32)
    /// Larger than the cap (bytes).
    case tooLarge(Int)
  }

  /// The path that failed: for a folder, the first one that could not be made.
  public let path: String
  public let kind: Kind

  public init(_ kind: Kind, _ path: String) {
    self.kind = kind
    self.path = path
  }

  /// `errno` now, for `path`.
  static func system(_ path: String) -> LocalFileError { LocalFileError(.system(errno), path) }

  /// Why, without the path: the C library's words, or the cap.
  public var reason: String {
    switch kind {
    case .system(let code): String(cString: strerror(code))
    case .tooLarge(let limit): "larger than the \(limit) bytes lifelog reads from such a file"
    }
  }

  public var description: String { "'\(path)': \(reason)" }

  /// The C library's `errno`, when it refused.
  public var systemErrno: Int32? {
    if case .system(let code) = kind { return code }
    return nil
  }
}

/// The local files lifelog reads and writes itself (a token or passphrase file, a TLS key, unit
/// files, the folders above a database or a remote), on the C library: Foundation would add
/// milliseconds to the start-up of every lifelog command.
///
/// A remote's own files are read through `RemoteFolder` in LifelogSync, which never follows a
/// link; this is for the user's own files, so a link is followed and a pipe is read
/// (`--passphrase-file <(pass show lifelog)`), but never past a limit.
public enum LocalFile {
  /// 1 MiB: a token is 43 characters, a passphrase a line, a TLS key a few KiB.
  public static let limit = 1 << 20

  /// The whole file; throws when it is missing, unreadable or larger than `limit`.
  public static func read(_ path: String, limit: Int = limit) throws(LocalFileError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(path) }
    defer { close(descriptor) }
    return try readAll(descriptor, path: path, limit: limit, stoppingAfterNewline: false)
  }

  /// Reads an open file to its end, or to its first newline, but never more than `limit` bytes.
  ///
  /// - Parameter expected: the size `fstat` gave, to reserve memory once (never past `limit`).
  public static func readAll(
    _ descriptor: Int32, path: String, limit: Int, stoppingAfterNewline: Bool, expected: Int = 0
  ) throws(LocalFileError) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(min(max(0, expected), limit))
    var chunk = [UInt8](repeating: 0, count: stoppingAfterNewline ? 1 << 12 : 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .system(path)
      }
      if count == 0 { return bytes }
      if stoppingAfterNewline, let newline = chunk[0..<count].firstIndex(of: 0x0A) {
        guard newline + 1 <= limit - bytes.count else {
          throw LocalFileError(.tooLarge(limit), path)
        }
        bytes.append(contentsOf: chunk[0...newline])
        return bytes
      }
      guard count <= limit - bytes.count else { throw LocalFileError(.tooLarge(limit), path) }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  /// Replaces `path` with `bytes` atomically, through ``AtomicFile``: the file gets `mode`
  /// whatever the umask, and a reader sees the old file or the new one, never half of one.
  public static func write(
    _ bytes: [UInt8], to path: String, mode: mode_t = 0o600
  ) throws(LocalFileError) {
    let file = try AtomicFile(replacing: path, mode: mode)
    try file.write(bytes)
    try file.commit()
  }

  /// Creates the folder `path` and every missing one above it with `mode` (whatever the umask);
  /// folders that exist are left as they are.
  ///
  /// - Throws: naming the first folder that could not be made.
  public static func createFolders(_ path: String, mode: mode_t = 0o700) throws(LocalFileError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      if mkdir(prefix, mode) == 0 {
        chmod(prefix, mode)
      } else if errno != EEXIST {
        throw .system(prefix)
      }
      prefix += "/"
    }
  }

  /// Creates the folders above the file `path` (not the file), as ``createFolders(_:mode:)``.
  public static func createFolders(above path: String, mode: mode_t = 0o700) throws(LocalFileError)
  {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
    try createFolders(String(path[..<slash]), mode: mode)
  }
}
