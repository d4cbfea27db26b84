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
    var object = JSONObjectWriter()
    object.add("lifelog", "remote")
    object.add("format", manifest.format)
    object.add("remoteId", manifest.remoteID)
    object.add("minVersion", manifest.minimumVersion)
    if manifest.encrypted { object.add("encryption", SealedHeader.cipher) }
    try checked { () throws(RemoteFileError) in
      try folder.writeAtomically(FileRemote.manifestName, Array((object.result + "\n").utf8))
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
    guard let json = try? JSONValue.parse(bytes), json["lifelog"]?.string == "remote",
      let id = json["remoteId"]?.string, let format = json["format"]?.integer,
      let minimum = json["minVersion"]?.string
    else { throw .remoteUnavailable(root, reason: "its \(FileRemote.manifestName) is damaged") }
    return RemoteManifest(
      remoteID: id, format: Int(format), minimumVersion: minimum,
      encrypted: json["encryption"] != nil)
  }

  // MARK: - Folders

  /// The root folder, or nil when it does not exist; a file there is refused.
  private func rootFolder() throws(SyncError) -> RemoteFolder? {
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
  private func mountedFolder() throws(SyncError) -> RemoteFolder {
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
  private func folder(_ name: String, creating: Bool = false) throws(SyncError) -> RemoteFolder? {
    let root = try mountedFolder()
    return try checked { () throws(RemoteFileError) in
      creating ? try root.makeFolder(name) : try root.folder(name)
    }
  }

  /// This device's own folder under `devices/`, never a link: pushing and compacting write and
  /// delete there.
  private func ownFolder(_ device: String, creating: Bool) throws(SyncError) -> RemoteFolder? {
    guard let devices = try folder("devices", creating: creating) else { return nil }
    return try checked { () throws(RemoteFileError) in
      creating ? try devices.makeFolder(device) : try devices.folder(device)
    }
  }

  /// Runs `body`, turning a file problem into "the remote is unavailable" (exit 69).
  private func checked<T>(_ body: () throws(RemoteFileError) -> T) throws(SyncError) -> T {
    do {
      return try body()
    } catch {
      throw .remoteUnavailable(root, reason: error.description)
    }
  }

  // MARK: - Keys

  public func keys() throws(SyncError) -> RemoteKeys? {
    guard let folder = try folder("keys") else { return nil }
    let versions = try checked { () throws(RemoteFileError) in try folder.list() }.compactMap {
      name -> Int? in
      FileRemote.number(inName: name, suffix: ".json")
    }
    guard let newest = versions.max() else { return nil }
    let name = FileRemote.padded(newest) + ".json"
    let read = try checked { () throws(RemoteFileError) in
      try folder.read(name, limit: Limit.manifest)
    }
    guard let bytes = read else { return nil }
    do {
      return try RemoteKeys(bytes: bytes)
    } catch {
      throw .remoteUnavailable(
        root, reason: "its key envelope '\(keysPath(version: newest))' cannot be read: \(error)")
    }
  }

  /// Writes the next key envelope under a name no other machine can take at the same moment: the
  /// file is written whole under a temporary name, then hard-linked into place, which fails when
  /// the name exists.
  public func putKeys(_ keys: RemoteKeys) throws(SyncError) {
    guard keys.version == (try self.keys()?.version ?? 0) + 1 else { throw .keysChanged(root) }
    guard let folder = try folder("keys", creating: true) else { throw .keysChanged(root) }
    let name = FileRemote.padded(keys.version) + ".json"
    guard
      try checked({ () throws(RemoteFileError) in try folder.writeExclusively(name, keys.bytes) })
    else {
      throw .keysChanged(root)
    }
  }

  func keysPath(version: Int) -> String { root + "/keys/" + FileRemote.padded(version) + ".json" }

  // MARK: - Batches

  func batchPath(device: String, seq: Int) -> String {
    root + "/devices/" + device + "/" + FileRemote.batchName(seq)
  }

  static func batchName(_ seq: Int) -> String { padded(seq) + ".batch" }

  /// The number in a file name written as ``padded(_:)`` + `suffix` (`0000000012.batch`,
  /// `0000000003.json`), or nil for any other name.
  ///
  /// Only the names lifelog writes count, and only numbers from 1 to 2^31 - 1: a name such as
  /// `9223372036854775807.batch` in a hostile folder must not reach `seq + 1`.
  static func number(inName name: String, suffix: String) -> Int? {
    guard name.hasSuffix(suffix), name.utf8.count <= 10 + suffix.utf8.count,
      let number = Int(name.dropLast(suffix.count)), (1...Int(Int32.max)).contains(number),
      name == padded(number) + suffix
    else { return nil }
    return number
  }

  static func padded(_ seq: Int) -> String {
    let text = String(seq)
    return String(repeating: "0", count: max(0, 10 - text.count)) + text
  }

  public func push(device: String, seq: Int, bytes plain: [UInt8]) throws(SyncError) {
    let path = batchPath(device: device, seq: seq)
    let name = BatchEnvelope.Name.batch(device: device, seq: seq)
    let bytes = try envelope.seal(plain, at: root, name: name)
    guard let folder = try ownFolder(device, creating: true) else {
      throw .remoteUnavailable(root, reason: "no devices folder")
    }
    // A file there that cannot be read (a FIFO, a link, cut short by a file-syncing tool) is
    // replaced; a valid but different batch means two logs share a device id.
    if let existing = try? folder.read(FileRemote.batchName(seq), limit: Limit.batch) {
      if existing == bytes { return }
      if (try? envelope.open(existing, name: name)) != nil {
        throw .conflict(
          "The remote already holds a different batch \(seq) of this device at '\(path)'")
      }
    }
    try checked { () throws(RemoteFileError) in
      try folder.writeAtomically(FileRemote.batchName(seq), bytes)
    }
  }

  /// The cursor is a version vector: per device, the highest seq read with every lower one read
  /// too.
  ///
  /// A device's first batch that is missing (a later one is there), unreadable or refused by
  /// `rules` is held, and the vector stays below it.
  public func pull(
    after cursor: String, excluding device: String, rowLimit: Int, rules: PullRules
  ) throws(SyncError) -> PullPage {
    var vector: VersionVector
    do { vector = try VersionVector(parsing: cursor) } catch { vector = VersionVector() }
    var page = PullPage(batches: [], cursor: cursor, more: false, skipped: [])
    var rows = 0
    var pageBytes = 0
    guard let devices = try folder("devices") else { return page }
    let names = try checked { () throws(RemoteFileError) in try devices.list() }
    for other in names.filter({ !$0.hasPrefix(".") && $0 != device }).sorted() {
      // A device folder that cannot be opened holds back that device only, with a warning; a
      // stray file among the device folders is not a device.
      let opened: RemoteFolder?
      do {
        opened = try devices.folder(other)
      } catch {
        if error.kind != .notAFolder {
          page.skipped.append("devices/\(other): \(error)")
          page.held.append(
            HeldBatch(
              device: other, seq: vector[other] + 1, reason: .unreadable(String(describing: error)))
          )
        }
        continue
      }
      guard let folder = opened else { continue }
      while true {
        let seq = vector[other] + 1
        let file = "devices/\(other)/\(FileRemote.batchName(seq))"
        guard folder.kind(of: FileRemote.batchName(seq)) != nil else {
          if try hasBatch(in: folder, after: seq) {
            page.held.append(HeldBatch(device: other, seq: seq, reason: .missing))
          }
          break
        }
        if rows >= rowLimit || pageBytes >= Limit.page {
          page.more = true
          break
        }
        let read: [UInt8]?
        do {
          read = try folder.read(FileRemote.batchName(seq), limit: Limit.batch)
        } catch {
          page.skipped.append("\(file): \(error)")
          page.held.append(
            HeldBatch(device: other, seq: seq, reason: .unreadable(String(describing: error))))
          break
        }
        guard let bytes = read else { break }
        pageBytes += bytes.count
        let batch: Batch
        do {
          batch = try envelope.open(bytes, name: .batch(device: other, seq: seq))
        } catch {
          page.skipped.append("\(file): \(error)")
          page.held.append(
            HeldBatch(device: other, seq: seq, reason: .unreadable(String(describing: error))))
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
  private func hasBatch(in folder: RemoteFolder, after seq: Int) throws(SyncError) -> Bool {
    try checked { () throws(RemoteFileError) in try folder.list() }.contains { name in
      guard let number = FileRemote.number(inName: name, suffix: ".batch") else { return false }
      return number > seq
    }
  }

  // MARK: - Snapshots and compaction

  public func putSnapshot(name: String, bytes: [UInt8]) throws(SyncError) {
    let sealed = try envelope.seal(bytes, at: root, name: .snapshot(name))
    guard let folder = try folder("snapshots", creating: true) else { return }
    try checked { () throws(RemoteFileError) in
      try folder.writeAtomically(name + ".snapshot", sealed)
    }
  }

  public func snapshot(
    beyond cursor: String, excluding device: String, skipped: inout [String]
  ) throws(SyncError) -> PulledSnapshot? {
    guard let folder = try folder("snapshots") else { return nil }
    let names = try checked { () throws(RemoteFileError) in try folder.list() }
      .filter { $0.hasSuffix(".snapshot") && !$0.hasPrefix(".") }.sorted(by: >)
    let vector = (try? VersionVector(parsing: cursor)) ?? VersionVector()
    for file in names {
      // Not only the newest: a snapshot named older (written on a machine whose clock is behind,
      // or before the newest one's writer had seen it) may hold batches that were since deleted.
      // The header says what a snapshot covers, so those with nothing new are not read whole.
      let bytes: [UInt8]
      do {
        guard let first = try folder.readFirstLine(file, limit: Limit.header) else { continue }
        // A header refused outright (covers keys that are not device ids, say) is named.
        let header = try BatchCodec.header(of: first)
        guard header.kind == .snapshot,
          !vector.covers(VersionVector(header.covers.seqs.filter { $0.key != device })),
          let whole = try folder.read(file, limit: Limit.snapshot)
        else { continue }  // nothing new, or still being copied: an older one may do
        bytes = whole
      } catch {
        skipped.append("snapshots/\(file): \(error)")
        continue  // not a file lifelog reads: an older one may do
      }
      let snapshot: Batch
      do {
        snapshot = try envelope.open(
          bytes, name: .snapshot(String(file.dropLast(".snapshot".count))))
      } catch {
        skipped.append("snapshots/\(file): \(error)")
        continue  // damaged or not authentic: an older one may do
      }
      return PulledSnapshot(
        name: String(file.dropLast(".snapshot".count)), snapshot: snapshot,
        cursor: vector.merged(with: snapshot.covers).json)
    }
    return nil
  }

  public func batchCount(device: String) throws(SyncError) -> Int {
    guard let folder = try ownFolder(device, creating: false) else { return 0 }
    return try checked { () throws(RemoteFileError) in try folder.list() }
      .filter { $0.hasSuffix(".batch") && !$0.hasPrefix(".") }.count
  }

  public func deleteBatches(device: String, through seq: Int) throws(SyncError) {
    guard let folder = try ownFolder(device, creating: false) else { return }
    for name in try checked({ () throws(RemoteFileError) in try folder.list() }) {
      if let number = FileRemote.number(inName: name, suffix: ".batch"), number <= seq {
        folder.remove(name)
      }
    }
  }
}
