import LifelogCore
import LifelogProtocol

/// Snapshots and compaction in a folder remote: `snapshots/<name>.snapshot`, and deleting a
/// device's own batches once a snapshot covers them.
extension FileRemote {
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
    try snapshot(beyond: cursor, excluding: device, passing: [], skipped: &skipped)
  }

  /// Every snapshot is in the folder, so one held by the clock rule (in `passing`) is passed over
  /// for the newest older one that holds something new.
  public func snapshot(
    beyond cursor: String, excluding device: String, passing: Set<String>,
    skipped: inout [String]
  ) throws(SyncError) -> PulledSnapshot? {
    guard let folder = try folder("snapshots") else { return nil }
    let files = SnapshotChoice.newestFirst(
      try checked { () throws(RemoteFileError) in try folder.list() })
    let vector = (try? VersionVector(parsing: cursor)) ?? VersionVector()
    for (file, name) in files where !passing.contains(name) {
      let bytes: [UInt8]
      do {
        guard let first = try folder.readFirstLine(file, limit: Limit.header),
          try SnapshotChoice.holdsNew(header: first, beyond: vector, excluding: device),
          let whole = try folder.read(file, limit: Limit.snapshot)
        else { continue }  // nothing new, or still being copied: an older one may do
        bytes = whole
      } catch {
        skipped.append("snapshots/\(file): \(error)")
        continue  // not a file lifelog reads: an older one may do
      }
      let snapshot: Batch
      do {
        snapshot = try envelope.open(bytes, name: .snapshot(name))
      } catch {
        skipped.append("snapshots/\(file): \(error)")
        continue  // damaged or not authentic: an older one may do
      }
      return PulledSnapshot(
        name: name, snapshot: snapshot, cursor: vector.merged(with: snapshot.covers).json)
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
