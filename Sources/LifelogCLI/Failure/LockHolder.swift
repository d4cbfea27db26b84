@preconcurrency import Glibc

/// Which other process holds a lock on the log: read from `/proc/locks` (Linux), which lists
/// each POSIX lock with its owner's pid and the inode of the file it is on.
enum LockHolder {
  /// The largest `/proc/locks` read (a machine with thousands of locks is cut short, not slow).
  static let readLimit = 1 << 20

  /// The pid of another process locking `path`, its `-wal` or its `-shm` file; nil when none
  /// is found (or the system does not say).
  static func pid(of path: String) -> Int32? {
    let inodes = Set([path, path + "-wal", path + "-shm"].compactMap(inode))
    guard !inodes.isEmpty, let text = read("/proc/locks") else { return nil }
    let me = getpid()
    for line in text.split(separator: "\n") {
      // `1: POSIX  ADVISORY  WRITE 4242 08:01:1311 128 128`; `->` marks a waiting lock.
      let fields = line.split(separator: " ").filter { $0 != "->" }
      guard fields.count >= 6, let pid = Int32(fields[4]), pid != me,
        let inode = fields[5].split(separator: ":").last.flatMap({ UInt64($0) }),
        inodes.contains(inode)
      else { continue }
      return pid
    }
    return nil
  }

  private static func inode(_ path: String) -> UInt64? {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
  }

  private static func read(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: readLimit)
    var count = 0
    while count < readLimit {
      let got = bytes.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { Glibc.read(descriptor, $0 + count, readLimit - count) } ?? 0
      }
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { break }
      count += got
    }
    return String(decoding: bytes[..<count], as: UTF8.self)
  }
}
