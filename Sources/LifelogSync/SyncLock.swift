@preconcurrency import Glibc

/// The lock that keeps two syncs of one log apart: `flock` on a file beside the database, so a
/// sync started by cron while another runs exits at once, and a crashed sync leaves no stale lock.
public final class SyncLock {
  private let descriptor: Int32
  public let path: String

  /// Takes the lock, or throws ``SyncError/syncRunning(_:)`` at once when another process holds it.
  public init(path: String) throws(SyncError) {
    self.path = path
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw .remoteUnavailable(
        path, reason: "cannot create the sync lock: \(String(cString: strerror(errno)))")
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
