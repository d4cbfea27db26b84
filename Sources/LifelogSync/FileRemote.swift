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
/// <remote>/keys/<version>.json               key envelopes of an encrypted remote, version zero-padded
/// ```
public final class FileRemote: Remote {
  /// The folder, as an absolute path.
  public let root: String
  public var location: String { root }
  public var envelope: BatchEnvelope = .plain

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

  /// Creates a new plain remote in a missing or empty folder, or joins the one already there.
  ///
  /// - Returns: the manifest, and whether the remote was created.
  public func createOrJoin(minimumVersion: String) throws(SyncError) -> (RemoteManifest, created: Bool) {
    if let manifest = try existingManifest() { return (manifest, false) }
    return (try create(remoteID: UUIDText.random(), minimumVersion: minimumVersion, keys: nil), true)
  }

  /// The manifest of the remote in the folder, or nil when the folder is missing or empty (a new
  /// remote may be created there); throws when it holds something else.
  public func existingManifest() throws(SyncError) -> RemoteManifest? {
    if FileSystem.exists(root + "/" + FileRemote.manifestName) { return try manifest() }
    if FileSystem.exists(root) {
      guard FileSystem.isDirectory(root) else { throw .remoteUnavailable(root, reason: "it is a file, not a folder") }
      let names = (try FileSystem.list(root) ?? []).filter { !$0.hasPrefix(".") }
      guard names.isEmpty else {
        throw .remoteUnavailable(
          root, reason: "the folder is not empty and holds no lifelog remote; give an empty or new folder")
      }
    }
    return nil
  }

  /// Creates a new remote in a missing or empty folder; with `keys`, an encrypted one. The key
  /// envelope is written before the manifest, so a remote is never seen encrypted without keys.
  public func create(remoteID: String, minimumVersion: String, keys: RemoteKeys?) throws(SyncError) -> RemoteManifest {
    try FileSystem.makeDirectory(root + "/devices")
    try FileSystem.makeDirectory(root + "/snapshots")
    if let keys { try putKeys(keys) }
    let manifest = RemoteManifest(remoteID: remoteID, minimumVersion: minimumVersion, encrypted: keys != nil)
    var object = JSONObjectWriter()
    object.add("lifelog", "remote")
    object.add("format", manifest.format)
    object.add("remoteId", manifest.remoteID)
    object.add("minVersion", manifest.minimumVersion)
    if manifest.encrypted { object.add("encryption", BatchEnvelope.cipher) }
    try FileSystem.writeAtomically(root + "/" + FileRemote.manifestName, Array((object.result + "\n").utf8))
    return manifest
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
    return RemoteManifest(
      remoteID: id, format: Int(format), minimumVersion: minimum, encrypted: json["encryption"] != nil)
  }

  // MARK: - Keys

  public func keys() throws(SyncError) -> RemoteKeys? {
    let versions = (try FileSystem.list(root + "/keys") ?? []).compactMap { name -> Int? in
      name.hasSuffix(".json") && !name.hasPrefix(".") ? Int(name.dropLast(".json".count)) : nil
    }
    guard let newest = versions.max() else { return nil }
    let path = keysPath(version: newest)
    guard let bytes = try FileSystem.read(path) else { return nil }
    do {
      return try RemoteKeys(bytes: bytes)
    } catch {
      throw .remoteUnavailable(root, reason: "its key envelope '\(path)' cannot be read: \(error)")
    }
  }

  /// Writes the next key envelope under a name no other machine can take at the same moment: the
  /// file is written whole under a temporary name, then hard-linked into place, which fails when
  /// the name exists.
  public func putKeys(_ keys: RemoteKeys) throws(SyncError) {
    guard keys.version == (try self.keys()?.version ?? 0) + 1 else { throw .keysChanged(root) }
    try FileSystem.makeDirectory(root + "/keys")
    guard try FileSystem.writeExclusively(keysPath(version: keys.version), keys.bytes) else { throw .keysChanged(root) }
  }

  func keysPath(version: Int) -> String { root + "/keys/" + FileRemote.padded(version) + ".json" }

  // MARK: - Batches

  func batchPath(device: String, seq: Int) -> String {
    root + "/devices/" + device + "/" + FileRemote.padded(seq) + ".batch"
  }

  static func padded(_ seq: Int) -> String {
    let text = String(seq)
    return String(repeating: "0", count: max(0, 10 - text.count)) + text
  }

  public func push(device: String, seq: Int, bytes plain: [UInt8]) throws(SyncError) {
    let path = batchPath(device: device, seq: seq)
    let name = BatchEnvelope.Name.batch(device: device, seq: seq)
    let bytes = try envelope.seal(plain, at: root, name: name)
    if let existing = try FileSystem.read(path) {
      if existing == bytes { return }
      // A damaged copy of our own batch (cut short by a file-syncing tool) is repaired; a valid
      // but different one means two logs share a device id.
      if (try? envelope.open(existing, name: name)) != nil {
        throw .conflict("The remote already holds a different batch \(seq) of this device at '\(path)'")
      }
    }
    try FileSystem.makeDirectory(root + "/devices/" + device)
    try FileSystem.writeAtomically(path, bytes)
  }

  /// The cursor is a version vector: per device, the highest seq read with every lower one read
  /// too. A device's first batch that is missing (a later one is there), unreadable or refused by
  /// `rules` is held, and the vector stays below it.
  public func pull(
    after cursor: String, excluding device: String, rowLimit: Int, rules: PullRules
  ) throws(SyncError) -> PullPage {
    var vector: VersionVector
    do { vector = try VersionVector(parsing: cursor) } catch { vector = VersionVector() }
    var page = PullPage(batches: [], cursor: cursor, more: false, skipped: [])
    var rows = 0
    let devices = (try FileSystem.list(root + "/devices") ?? []).filter { !$0.hasPrefix(".") && $0 != device }.sorted()
    for other in devices {
      while true {
        let seq = vector[other] + 1
        guard let bytes = try FileSystem.read(batchPath(device: other, seq: seq)) else {
          if try hasBatch(of: other, after: seq) {
            page.held.append(HeldBatch(device: other, seq: seq, reason: .missing))
          }
          break
        }
        if rows >= rowLimit {
          page.more = true
          break
        }
        let batch: Batch
        do {
          batch = try envelope.open(bytes, name: .batch(device: other, seq: seq))
        } catch {
          page.skipped.append("devices/\(other)/\(FileRemote.padded(seq)).batch: \(error)")
          page.held.append(HeldBatch(device: other, seq: seq, reason: .unreadable(String(describing: error))))
          break
        }
        if let reason = rules.hold(batch) {
          page.held.append(HeldBatch(device: other, seq: seq, reason: reason))
          break
        }
        page.batches.append(PulledBatch(name: "\(other)/\(seq)", batch: batch))
        rows += batch.changes.count
        vector[other] = seq
      }
    }
    page.cursor = vector.json
    return page
  }

  /// Whether `device` has a batch file numbered above `seq`: then a missing `seq` is a gap, not
  /// the end.
  private func hasBatch(of device: String, after seq: Int) throws(SyncError) -> Bool {
    try (FileSystem.list(root + "/devices/" + device) ?? []).contains { name in
      guard name.hasSuffix(".batch"), !name.hasPrefix("."), let number = Int(name.dropLast(".batch".count))
      else { return false }
      return number > seq
    }
  }

  // MARK: - Snapshots and compaction

  public func putSnapshot(name: String, bytes: [UInt8]) throws(SyncError) {
    try FileSystem.makeDirectory(root + "/snapshots")
    let sealed = try envelope.seal(bytes, at: root, name: .snapshot(name))
    try FileSystem.writeAtomically(root + "/snapshots/" + name + ".snapshot", sealed)
  }

  public func snapshot(
    beyond cursor: String, excluding device: String, skipped: inout [String]
  ) throws(SyncError) -> PulledSnapshot? {
    let names = (try FileSystem.list(root + "/snapshots") ?? [])
      .filter { $0.hasSuffix(".snapshot") && !$0.hasPrefix(".") }.sorted(by: >)
    let vector = (try? VersionVector(parsing: cursor)) ?? VersionVector()
    for file in names {
      // Not only the newest: a snapshot named older (written on a machine whose clock is behind,
      // or before the newest one's writer had seen it) may hold batches that were since deleted.
      // The header says what a snapshot covers, so those with nothing new are not read whole.
      let path = root + "/snapshots/" + file
      guard let first = try FileSystem.readFirstLine(path) else { continue }
      let header: Batch
      do { header = try BatchCodec.header(of: first) } catch {
        skipped.append("snapshots/\(file): \(error)")  // a covers key that is not a device id, say
        continue
      }
      guard header.kind == .snapshot, !vector.covers(VersionVector(header.covers.seqs.filter { $0.key != device })),
        let bytes = try FileSystem.read(path)
      else { continue }  // nothing new, or still being copied: an older one may do
      let snapshot: Batch
      do {
        snapshot = try envelope.open(bytes, name: .snapshot(String(file.dropLast(".snapshot".count))))
      } catch {
        skipped.append("snapshots/\(file): \(error)")
        continue  // damaged or not authentic: an older one may do
      }
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
