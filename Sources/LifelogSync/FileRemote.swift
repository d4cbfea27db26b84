@preconcurrency import Glibc
import LifelogCore

/// A remote that is a plain folder (DESIGN §4): a USB stick, an NFS mount, a Dropbox or Syncthing
/// folder. Only immutable files with unique names are written, each under a temporary name first,
/// so no locks are needed and any file-syncing tool can carry the folder.
///
/// ```
/// <remote>/lifelog-remote.json                manifest
/// <remote>/devices/<device>/<seq>.batch       seq zero-padded to 10 digits
/// <remote>/snapshots/<name>.snapshot
/// ```
public final class FileRemote: Remote {
  /// The folder, as an absolute path.
  public let root: String
  public var location: String { root }

  static let manifestName = "lifelog-remote.json"

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
        throw .remoteUnavailable(url, reason: "a file URL needs an absolute path, as in file:///media/usb/lifelog")
      }
    }
    guard !path.isEmpty else { throw .remoteUnavailable(url, reason: "the path is empty") }
    if !path.hasPrefix("/") {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
      guard getcwd(&buffer, buffer.count) != nil else { throw .remoteUnavailable(url, reason: "no current folder") }
      path = String(cString: buffer) + "/" + path
    }
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    return path
  }

  // MARK: - Creating and joining

  /// Creates a new remote in a missing or empty folder, or joins the one already there.
  ///
  /// - Returns: the manifest, and whether the remote was created.
  public func createOrJoin(minimumVersion: String) throws(SyncError) -> (RemoteManifest, created: Bool) {
    if FileSystem.exists(root + "/" + FileRemote.manifestName) { return (try manifest(), false) }
    if FileSystem.exists(root) {
      guard FileSystem.isDirectory(root) else { throw .remoteUnavailable(root, reason: "it is a file, not a folder") }
      let names = (try FileSystem.list(root) ?? []).filter { !$0.hasPrefix(".") }
      guard names.isEmpty else {
        throw .remoteUnavailable(
          root, reason: "the folder is not empty and holds no lifelog remote; give an empty or new folder")
      }
    }
    try FileSystem.makeDirectory(root + "/devices")
    try FileSystem.makeDirectory(root + "/snapshots")
    let manifest = RemoteManifest(remoteID: UUIDText.random(), minimumVersion: minimumVersion)
    var object = JSONObjectWriter()
    object.add("lifelog", "remote")
    object.add("format", manifest.format)
    object.add("remoteId", manifest.remoteID)
    object.add("minVersion", manifest.minimumVersion)
    try FileSystem.writeAtomically(root + "/" + FileRemote.manifestName, Array((object.result + "\n").utf8))
    return (manifest, true)
  }

  public func manifest() throws(SyncError) -> RemoteManifest {
    guard FileSystem.isDirectory(root) else {
      throw .remoteUnavailable(root, reason: "the folder does not exist (is the drive mounted?)")
    }
    guard let bytes = try FileSystem.read(root + "/" + FileRemote.manifestName) else {
      throw .remoteUnavailable(root, reason: "it holds no \(FileRemote.manifestName) (was the folder emptied?)")
    }
    guard let json = try? JSONValue.parse(bytes), json["lifelog"]?.string == "remote",
      let id = json["remoteId"]?.string, let format = json["format"]?.integer,
      let minimum = json["minVersion"]?.string
    else { throw .remoteUnavailable(root, reason: "its \(FileRemote.manifestName) is damaged") }
    return RemoteManifest(remoteID: id, format: Int(format), minimumVersion: minimum)
  }

  // MARK: - Batches

  func batchPath(device: String, seq: Int) -> String {
    root + "/devices/" + device + "/" + FileRemote.padded(seq) + ".batch"
  }

  static func padded(_ seq: Int) -> String {
    let text = String(seq)
    return String(repeating: "0", count: max(0, 10 - text.count)) + text
  }

  public func push(device: String, seq: Int, bytes: [UInt8]) throws(SyncError) {
    let path = batchPath(device: device, seq: seq)
    if let existing = try FileSystem.read(path) {
      if existing == bytes { return }
      // A damaged copy of our own batch (cut short by a file-syncing tool) is repaired; a valid
      // but different one means two logs share a device id.
      if (try? BatchCodec.decode(existing)) != nil {
        throw .conflict("The remote already holds a different batch \(seq) of this device at '\(path)'")
      }
    }
    try FileSystem.makeDirectory(root + "/devices/" + device)
    try FileSystem.writeAtomically(path, bytes)
  }

  public func pull(after cursor: String, excluding device: String, rowLimit: Int) throws(SyncError) -> PullPage {
    var vector: VersionVector
    do { vector = try VersionVector(parsing: cursor) } catch { vector = VersionVector() }
    var page = PullPage(batches: [], cursor: cursor, more: false, skipped: [])
    var rows = 0
    let devices = (try FileSystem.list(root + "/devices") ?? []).filter { !$0.hasPrefix(".") && $0 != device }.sorted()
    for other in devices {
      while true {
        let seq = vector[other] + 1
        guard let bytes = try FileSystem.read(batchPath(device: other, seq: seq)) else { break }
        if rows >= rowLimit {
          page.more = true
          break
        }
        do {
          let batch = try BatchCodec.decode(bytes)
          guard batch.kind == .batch, batch.device == other, batch.seq == seq else {
            throw BatchError.damaged("its header names \(batch.device) batch \(batch.seq)")
          }
          page.batches.append(PulledBatch(name: "\(other)/\(seq)", batch: batch))
          rows += batch.changes.count
          vector[other] = seq
        } catch {
          page.skipped.append("devices/\(other)/\(FileRemote.padded(seq)).batch: \(error)")
          break
        }
      }
    }
    page.cursor = vector.json
    return page
  }

  // MARK: - Snapshots and compaction

  public func putSnapshot(name: String, bytes: [UInt8]) throws(SyncError) {
    try FileSystem.makeDirectory(root + "/snapshots")
    try FileSystem.writeAtomically(root + "/snapshots/" + name + ".snapshot", bytes)
  }

  public func snapshot(beyond cursor: String, excluding device: String) throws(SyncError) -> PulledSnapshot? {
    let names = (try FileSystem.list(root + "/snapshots") ?? [])
      .filter { $0.hasSuffix(".snapshot") && !$0.hasPrefix(".") }.sorted(by: >)
    let vector = (try? VersionVector(parsing: cursor)) ?? VersionVector()
    for file in names {
      // Not only the newest: a snapshot named older (written on a machine whose clock is behind,
      // or before the newest one's writer had seen it) may hold batches that were since deleted.
      // The header says what a snapshot covers, so those with nothing new are not read whole.
      let path = root + "/snapshots/" + file
      guard let first = try FileSystem.readFirstLine(path), let header = try? BatchCodec.header(of: first),
        header.kind == .snapshot, !vector.covers(VersionVector(header.covers.seqs.filter { $0.key != device })),
        let bytes = try FileSystem.read(path), let snapshot = try? BatchCodec.decode(bytes), snapshot.kind == .snapshot
      else { continue }  // nothing new, or still being copied, or damaged: an older one may do
      return PulledSnapshot(
        name: String(file.dropLast(".snapshot".count)), snapshot: snapshot, cursor: vector.merged(with: snapshot.covers).json)
    }
    return nil
  }

  public func batchCount(device: String) throws(SyncError) -> Int {
    (try FileSystem.list(root + "/devices/" + device) ?? []).filter { $0.hasSuffix(".batch") && !$0.hasPrefix(".") }.count
  }

  public func deleteBatches(device: String, through seq: Int) throws(SyncError) {
    for name in try FileSystem.list(root + "/devices/" + device) ?? [] where name.hasSuffix(".batch") {
      if let number = Int(name.dropLast(".batch".count)), number <= seq {
        FileSystem.remove(root + "/devices/" + device + "/" + name)
      }
    }
  }
}
