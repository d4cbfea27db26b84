@preconcurrency import Glibc
import LifelogCore

/// The few path-based file operations lifelog needs beyond ``RemoteFolder``, on the C library
/// (Foundation would add milliseconds to the start-up of every lifelog command).
enum FileSystem {
  /// Creates `path` and any missing folder above it, `0700` (whatever the umask): a new remote's
  /// root.
  ///
  /// Folders that exist are left as they are.
  static func makeDirectory(_ path: String) throws(SyncError) {
    do {
      try LocalFile.createFolders(path)
    } catch {
      throw .remoteUnavailable(
        error.path, reason: "cannot create folder '\(error.path)' (\(error.reason))")
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

  /// Reads an open file of a remote as ``LocalFile/readAll(_:path:limit:stoppingAfterNewline:expected:)``
  /// does, failing with the remote's error.
  static func readAll(
    _ descriptor: Int32, path: String, limit: Int, stoppingAfterNewline: Bool, expected: Int = 0
  ) throws(RemoteFileError) -> [UInt8] {
    do {
      return try LocalFile.readAll(
        descriptor, path: path, limit: limit, stoppingAfterNewline: stoppingAfterNewline,
        expected: expected)
    } catch {
      switch error.kind {
      case .tooLarge(let limit): throw RemoteFileError(.tooLarge(limit), path)
      case .system: throw RemoteFileError(.system(what: "cannot read", reason: error.reason), path)
      }
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
