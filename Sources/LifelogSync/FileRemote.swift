@preconcurrency import Glibc
import LifelogCore
import LifelogProtocol

/// A remote that is a plain folder (docs/design.md §4.2): a USB stick, an NFS mount, a Dropbox or
/// Syncthing folder.
///
/// Only immutable files with unique names are written, each under a temporary name first, so no
/// locks are needed and any file-syncing tool can carry the folder.
///
/// ```
/// <remote>/lifelog-remote.json                manifest
/// <remote>/devices/<device>/<seq>.batch       seq zero-padded to 10 digits
/// <remote>/snapshots/<name>.snapshot
/// <remote>/keys/<version>.json               key envelopes of an encrypted remote, version zero-padded
/// ```
public final class FileRemote: Remote {
  /// The folder, as an absolute path.
  public let root: String
  public var location: String { root }
  public var envelope: BatchEnvelope = .plain

  static let manifestName = "lifelog-remote.json"

  /// The most bytes read from each kind of file (docs/sync-protocol.md §4), so a hostile folder
  /// (a batch that links to `/dev/zero`, a file of many gigabytes) costs at most this much memory.
  enum Limit {
    /// A manifest or a key envelope is a few hundred bytes of JSON.
    static let manifest = 64 << 10
    /// A batch holds at most 5,000 rows; a row is about 450 bytes, and under 50 KiB even with a
    /// note of 10,000 characters that all need escapes.
    static let batch = 256 << 20
    /// The header line of a snapshot: its `covers` names every device (about 50 bytes each).
    static let header = 1 << 20
    /// A page of a pull ends once it holds this many bytes of batches (it holds at least one),
    /// as it ends at 5,000 rows: otherwise batches of one row and many megabytes each would make
    /// a page of any size.
    static let page = 16 << 20
    /// A snapshot holds the whole log: about 2 million rows at 1 GiB, which is also the largest
    /// snapshot `lifelog serve --max-body` can be set to accept.
    static let snapshot = 1 << 30
  }

  /// A remote at `url`: a path (relative to the current folder, or absolute) or `file:///path`.
  public init(url: String) throws(SyncError) {
    root = try FileRemote.path(from: url)
  }

  /// The folder an address names.
  public static func path(from url: String) throws(SyncError) -> String {
    var path = url
    if path.hasPrefix("file://") {
      path = String(path.dropFirst("file://".count))
      guard path.hasPrefix("/") else {
        throw .remoteUnavailable(
          url, reason: "a file URL needs an absolute path, as in file:///media/usb/lifelog")
      }
    }
    guard !path.isEmpty else { throw .remoteUnavailable(url, reason: "the path is empty") }
    if !path.hasPrefix("/") {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
      guard getcwd(&buffer, buffer.count) != nil else {
        throw .remoteUnavailable(url, reason: "no current folder")
      }
      path = String(cString: buffer) + "/" + path
    }
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    return path
  }

  // MARK: - Creating and joining

  /// Creates a new plain remote in a missing or empty folder, or joins the one already there.
  ///
  /// - Returns: the manifest, and whether the remote was created.
  public func createOrJoin(
    minimumVersion: String
  ) throws(SyncError) -> (RemoteManifest, created: Bool) {
    if let manifest = try existingManifest() { return (manifest, false) }
    return (
      try create(remoteID: UUIDText.random(), minimumVersion: minimumVersion, keys: nil), true
    )
  }

  /// The manifest of the remote in the folder, or nil when the folder is missing or empty (a new
  /// remote may be created there); throws when it holds something else.
  public func existingManifest() throws(SyncError) -> RemoteManifest? {
    guard let folder = try rootFolder() else { return nil }
    if folder.kind(of: FileRemote.manifestName) != nil { return try manifest() }
    let names = try checked { () throws(RemoteFileError) in try folder.list() }.filter {
      !$0.hasPrefix(".")
    }
    guard names.isEmpty else {
      throw .remoteUnavailable(
        root,
        reason: "the folder is not empty and holds no lifelog remote; give an empty or new folder")
    }
    return nil
  }

  /// Creates a new remote in a missing or empty folder; with `keys`, an encrypted one.
  ///
  /// The key envelope is written before the manifest, so a remote is never seen encrypted without
  /// keys.
  public func create(
    remoteID: String, minimumVersion: String, keys: RemoteKeys?
  ) throws(SyncError) -> RemoteManifest {
    try FileSystem.makeDirectory(root)
    let folder = try mountedFolder()
    try checked { () throws(RemoteFileError) in
      _ = try folder.makeFolder("devices")
      _ = try folder.makeFolder("snapshots")
    }
    if let keys { try putKeys(keys) }
    let manifest = RemoteManifest(
      remoteID: remoteID, minimumVersion: minimumVersion, encrypted: keys != nil)
    try checked { () throws(RemoteFileError) in
      try folder.writeAtomically(FileRemote.manifestName, manifest.fileBytes)
    }
    return manifest
  }

  public func manifest() throws(SyncError) -> RemoteManifest {
    let folder = try mountedFolder()
    let read = try checked { () throws(RemoteFileError) in
      try folder.read(FileRemote.manifestName, limit: Limit.manifest)
    }
    guard let bytes = read else {
      throw .remoteUnavailable(
        root, reason: "it holds no \(FileRemote.manifestName) (was the folder emptied?)")
    }
    guard let manifest = RemoteManifest(fileBytes: bytes) else {
      throw .remoteUnavailable(root, reason: "its \(FileRemote.manifestName) is damaged")
    }
    return manifest
  }

  // MARK: - Folders
  //
  // Not private: the topics in FileRemote+Keys, +Batches and +Snapshots share them.

  /// The root folder, or nil when it does not exist; a file there is refused.
  func rootFolder() throws(SyncError) -> RemoteFolder? {
    do {
      return try RemoteFolder.root(root)
    } catch {
      if error.kind == .notAFolder {
        throw .remoteUnavailable(root, reason: "it is a file, not a folder")
      }
      throw .remoteUnavailable(root, reason: error.description)
    }
  }

  /// The root folder, which must exist.
  func mountedFolder() throws(SyncError) -> RemoteFolder {
    guard let folder = try rootFolder() else {
      throw .remoteUnavailable(root, reason: "the folder does not exist (is the drive mounted?)")
    }
    return folder
  }

  /// `name` (one of `devices`, `snapshots`, `keys`) in the root, or nil when missing; created when
  /// `creating`.
  ///
  /// A link there is refused (exit 69): acting on its target could write or delete files outside
  /// the remote.
  func folder(_ name: String, creating: Bool = false) throws(SyncError) -> RemoteFolder? {
    let root = try mountedFolder()
    return try checked { () throws(RemoteFileError) in
      creating ? try root.makeFolder(name) : try root.folder(name)
    }
  }

  /// This device's own folder under `devices/`, never a link: pushing and compacting write and
  /// delete there.
  func ownFolder(_ device: String, creating: Bool) throws(SyncError) -> RemoteFolder? {
    guard let devices = try folder("devices", creating: creating) else { return nil }
    return try checked { () throws(RemoteFileError) in
      creating ? try devices.makeFolder(device) : try devices.folder(device)
    }
  }

  /// Runs `body`, turning a file problem into "the remote is unavailable" (exit 69).
  func checked<T>(_ body: () throws(RemoteFileError) -> T) throws(SyncError) -> T {
    do {
      return try body()
    } catch {
      throw .remoteUnavailable(root, reason: error.description)
    }
  }
}
