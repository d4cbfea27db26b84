@preconcurrency import Glibc

/// The lock that keeps two syncs of one log apart: `flock` on a file beside the database, so a
/// sync started by cron while another runs exits at once, and a crashed sync leaves no stale lock.
///
/// The lock file sits beside the log, maybe in a folder others can write: it is opened with
/// `O_NOFOLLOW` and non-blocking, and must be a regular file, so a link planted at its name never
/// makes lifelog create or lock a file elsewhere, and a FIFO or device never blocks it.
public final class SyncLock {
  private let descriptor: Int32
  public let path: String

  /// Takes the lock, or throws ``SyncError/syncRunning(_:)`` at once when another process holds it.
  ///
  /// - Throws: ``SyncError/lockFileUnusable(_:errno:)`` when the lock file cannot be opened or
  ///   made, or is not a regular file: a fault of the folder beside the log, never of a remote.
  public init(path: String) throws(SyncError) {
    self.path = path
    descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .lockFileUnusable(path, errno: errno) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw .lockFileUnusable(path, errno: nil)
    }
    // No close here: the descriptor is already stored, so `deinit` closes it when this throws.
    // A second close would hit whatever file another thread was given that number meanwhile.
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { throw .syncRunning(path) }
  }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
