@preconcurrency import Glibc

/// The few file operations a folder remote needs, on the C library (Foundation would add
/// milliseconds to the start-up of every lifelog command).
enum FileSystem {
  static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// The whole file, or nil when it does not exist.
  static func read(_ path: String) throws(SyncError) -> [UInt8]? {
    try read(path, chunkSize: 1 << 16, stoppingAfterNewline: false)
  }

  /// The first line of a file, newline included (all of it when it has none), or nil when it does
  /// not exist: a batch's header, without reading the rows after it.
  static func readFirstLine(_ path: String) throws(SyncError) -> [UInt8]? {
    try read(path, chunkSize: 1 << 12, stoppingAfterNewline: true)
  }

  private static func read(_ path: String, chunkSize: Int, stoppingAfterNewline: Bool) throws(SyncError)
    -> [UInt8]?
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw failure(path, "cannot read")
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(path, "cannot read")
      }
      if count == 0 { return bytes }
      if stoppingAfterNewline, let newline = chunk[0..<count].firstIndex(of: 0x0A) {
        bytes.append(contentsOf: chunk[0...newline])
        return bytes
      }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  /// Writes a file so readers see either nothing or all of it: a temporary name in the same
  /// folder, flushed to disk, then renamed into place.
  static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(SyncError) {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    let temporary = folder + "/.tmp-" + UUIDHex.random() + ".part"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure(temporary, "cannot create") }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0 {
        if errno == EINTR { continue }
        let error = failure(temporary, "cannot write")
        close(descriptor)
        unlink(temporary)
        throw error
      }
      offset += written
    }
    guard fsync(descriptor) == 0, close(descriptor) == 0 else {
      unlink(temporary)
      throw failure(temporary, "cannot flush")
    }
    guard rename(temporary, path) == 0 else {
      let error = failure(path, "cannot rename into place")
      unlink(temporary)
      throw error
    }
    syncFolder(folder)
  }

  /// Writes a file only when `path` does not exist yet, even against another machine writing the
  /// same name at once: written whole under a temporary name, then hard-linked into place.
  ///
  /// - Returns: false when the name was taken.
  static func writeExclusively(_ path: String, _ bytes: [UInt8]) throws(SyncError) -> Bool {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    let temporary = folder + "/.tmp-" + UUIDHex.random() + ".link"
    try writeAtomically(temporary, bytes)
    defer { unlink(temporary) }
    if link(temporary, path) == 0 {
      syncFolder(folder)
      return true
    }
    if errno == EEXIST { return false }
    throw failure(path, "cannot link into place")
  }

  static func syncFolder(_ folder: String) {
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if descriptor >= 0 {
      fsync(descriptor)
      close(descriptor)
    }
  }

  /// The names in a folder (not `.` and `..`), or nil when it does not exist.
  static func list(_ path: String) throws(SyncError) -> [String]? {
    guard let directory = opendir(path) else {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw failure(path, "cannot list")
    }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names
  }

  static func makeDirectory(_ path: String) throws(SyncError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      if mkdir(prefix, 0o755) != 0, errno != EEXIST { throw failure(prefix, "cannot create folder") }
      prefix += "/"
    }
  }

  static func remove(_ path: String) {
    unlink(path)
  }

  static func failure(_ path: String, _ what: String) -> SyncError {
    .remoteUnavailable(path, reason: "\(what) '\(path)' (\(String(cString: strerror(errno))))")
  }
}

/// Random hex for temporary names.
enum UUIDHex {
  static func random() -> String {
    var generator = SystemRandomNumberGenerator()
    return String(generator.next(), radix: 16)
  }
}

/// Reading a small local file (a token file) for the command line, without Foundation.
public enum LocalFile {
  /// The file's bytes; throws when it is missing or unreadable.
  public static func read(_ path: String) throws -> [UInt8] {
    guard let bytes = try FileSystem.read(path) else {
      throw SyncError.remoteUnavailable(path, reason: "the file does not exist")
    }
    return bytes
  }
}
