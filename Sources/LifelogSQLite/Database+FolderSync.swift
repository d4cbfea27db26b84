import CLifelogFolderSync

/// The folder sync of a WAL that was on disk before the connection opened it, skipped.
///
/// SQLite's unix VFS opens every WAL with `O_CREAT`, cannot tell a new file from an old one, and so
/// `fsync`s the WAL's folder on each connection's first sync of it: a second `fdatasync` per `add`.
/// The folder sync makes the WAL's own directory entry durable, which matters only for a WAL
/// created since the last folder sync. A WAL that already held frames was written by a connection
/// that synced the folder at its first commit (SQLite always does), so its entry is on disk.
/// ``SyncedWAL`` notes such a WAL (by device and inode, read before the connection opens it); the
/// VFS's `openDirectory` call is filtered so that for a noted WAL it declines, which SQLite takes as
/// "no folder to sync". Every other file keeps the sync, and so does a WAL deleted and made again
/// (another inode), or one that was empty (a new or truncated WAL is always synced with its folder).
///
/// The filter and the list of noted WALs are C (`CLifelogFolderSync`): a system call SQLite makes.
public final class SyncedWAL {
  private let device: UInt64
  private let inode: UInt64

  /// Whether the filter is in place: installed once, before the first connection of the process.
  static let filterInstalled: Bool = lifelog_folder_sync_install() == 0

  /// Notes the WAL found with this device, inode and size (its `stat`, read before the connection
  /// first reads the log) when it holds frames; nil when it must keep its folder sync (empty, the
  /// filter unavailable, or every slot taken).
  public init?(device: UInt64, inode: UInt64, bytes: Int64) {
    guard SyncedWAL.filterInstalled, bytes > 0, lifelog_folder_sync_note(device, inode) == 1 else {
      return nil
    }
    self.device = device
    self.inode = inode
  }

  deinit {
    lifelog_folder_sync_forget(device, inode)
  }
}
