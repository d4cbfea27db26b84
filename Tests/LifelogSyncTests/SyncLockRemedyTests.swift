@preconcurrency import Glibc
import LifelogSync
import LifelogTestSupport
import Testing

/// What a sync whose lock file cannot be made tells the user to do: removing what is at the
/// lock's path helps only when something is there.
@Suite struct SyncLockRemedyTests {
  let folder = TemporaryDirectory(prefix: "lifelog-lock-remedy")

  /// The log's folder does not exist (ENOENT): the remedy is the --db path, not removing a file.
  @Test func aMissingFolderPointsAtTheDatabasePath() {
    let lock = folder.file("no-such-folder/lifelog.db.sync-lock")
    #expect(throws: SyncError.lockFileUnusable(lock, errno: ENOENT)) {
      _ = try SyncLock(path: lock)
    }
    let message = SyncError.lockFileUnusable(lock, errno: ENOENT).description
    #expect(message.contains("check the --db path"), "\(message)")
    #expect(!message.contains("remove what is at that path"), "\(message)")
  }

  @Test func tooManyOpenFilesSaysSo() {
    let message = SyncError.lockFileUnusable("/l/lifelog.db.sync-lock", errno: EMFILE).description
    #expect(message.contains("Too many files are open"), "\(message)")
    #expect(!message.contains("remove what is at that path"), "\(message)")
  }
}
