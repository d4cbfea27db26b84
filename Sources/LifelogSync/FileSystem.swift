@preconcurrency import Glibc

/// The few path-based file operations lifelog needs beyond ``RemoteFolder``, on the C library
/// (Foundation would add milliseconds to the start-up of every lifelog command).
enum FileSystem {
  /// Creates `path` and any missing folder above it, `0700` (whatever the umask): a new remote's
  /// root.
  ///
  /// Folders that exist are left as they are.
  static func makeDirectory(_ path: String) throws(SyncError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      if mkdir(prefix, 0o700) == 0 {
        chmod(prefix, 0o700)
      } else if errno != EEXIST {
        throw .remoteUnavailable(
          prefix, reason: "cannot create folder '\(prefix)' (\(String(cString: strerror(errno))))")
      }
      prefix += "/"
    }
  }

  /// Whether `path` is a folder (a link to one is not).
  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// The names in the folder `path` (not `.` and `..`), or nil when it does not exist: for code
  /// that looks at a remote by path (a checker); ``FileRemote`` itself holds ``RemoteFolder``s.
  static func list(_ path: String) throws(SyncError) -> [String]? {
    do {
      return try RemoteFolder.root(path)?.list()
    } catch {
      throw .remoteUnavailable(path, reason: error.description)
    }
  }

  /// A file of a remote by path, or nil when it does not exist: its last component is not
  /// followed, it must be a regular file, and at most `limit` bytes are read.
  static func read(
    _ path: String, limit: Int = FileRemote.Limit.snapshot
  ) throws(SyncError) -> [UInt8]? {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    do {
      return try RemoteFolder.root(folder.isEmpty ? "/" : folder)?.read(name, limit: limit)
    } catch {
      throw .remoteUnavailable(path, reason: error.description)
    }
  }

  /// Reads an open file to its end, or to its first newline, but never more than `limit` bytes.
  ///
  /// - Parameter expected: the size `fstat` gave, to reserve memory once (never past `limit`).
  static func readAll(
    _ descriptor: Int32, path: String, limit: Int, stoppingAfterNewline: Bool, expected: Int = 0
  ) throws(RemoteFileError) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(min(max(0, expected), limit))
    var chunk = [UInt8](repeating: 0, count: stoppingAfterNewline ? 1 << 12 : 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw RemoteFileError.system(path, "cannot read")
      }
      if count == 0 { return bytes }
      if stoppingAfterNewline, let newline = chunk[0..<count].firstIndex(of: 0x0A) {
        guard newline + 1 <= limit - bytes.count else {
          throw RemoteFileError(.tooLarge(limit), path)
        }
        bytes.append(contentsOf: chunk[0...newline])
        return bytes
      }
      guard count <= limit - bytes.count else { throw RemoteFileError(.tooLarge(limit), path) }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }
}

/// Random hex for temporary names.
enum UUIDHex {
  static func random() -> String {
    var generator = SystemRandomNumberGenerator()
    return String(generator.next(), radix: 16)
  }
}

/// Reading a small local file (a token or passphrase file) for the command line, without
/// Foundation.
///
/// Unlike a remote's files, this one is the user's own: a link is followed and a pipe is read
/// (`--passphrase-file <(pass show lifelog)`), but only up to ``limit``.
public enum LocalFile {
  /// 1 MiB: a token is 43 characters, a passphrase a line.
  public static let limit = 1 << 20

  /// The file's bytes; throws when it is missing, unreadable or larger than ``limit``.
  public static func read(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw SyncError.remoteUnavailable(
        path, reason: errno == ENOENT ? "the file does not exist" : String(cString: strerror(errno))
      )
    }
    defer { close(descriptor) }
    do {
      return try FileSystem.readAll(
        descriptor, path: path, limit: limit, stoppingAfterNewline: false)
    } catch {
      throw SyncError.remoteUnavailable(path, reason: error.description)
    }
  }
}
