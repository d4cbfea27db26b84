import LifelogCore
import LifelogProtocol

/// A WebDAV remote's snapshots and key envelopes: the same files and rules as a folder remote's
/// (``FileRemote``), each file one request.
extension DAVRemote {
  // MARK: - Snapshots

  public func putSnapshot(name: String, bytes: [UInt8]) throws(SyncError) {
    let sealed = try envelope.seal(bytes, at: location, name: .snapshot(name))
    let path = "snapshots/\(name).snapshot"
    var outcome = try client.putOnce(path, sealed)
    if outcome == .noParent {
      _ = try client.makeCollection("snapshots")
      outcome = try client.putOnce(path, sealed)
    }
    guard outcome == .created else {
      throw .remoteUnavailable(location, reason: "snapshot '\(name)' could not be stored")
    }
  }

  /// The newest snapshot with something the cursor lacks, as in a folder remote.
  ///
  /// Its header is read first (a `Range` request) so snapshots with nothing new are not fetched
  /// whole. When `snapshots/` has not changed since a sync found nothing new there, no header is
  /// read.
  public func snapshot(
    beyond cursor: String, excluding device: String, skipped: inout [String]
  ) throws(SyncError) -> PulledSnapshot? {
    let state = DAVPullState(parsing: cursor)
    snapshotsMarker = nil
    // One listing either way; its own entry's ETag says whether the headers need reading again.
    guard let listing = try client.list("snapshots") else { return nil }
    let marker = listing.own.flatMap { DAVRemote.settled($0, in: listing) }
    if let marker, marker == state.snapshots {
      snapshotsMarker = marker
      return nil
    }
    let files = SnapshotChoice.newestFirst(listing.members.map(\.name)).filter {
      APIPath.isName($0.name)
    }
    for (file, name) in files {
      let path = "snapshots/\(file)"
      let bytes: [UInt8]
      do {
        guard
          let start = try client.getStart(path, count: Limit.header, limit: Limit.snapshot)
        else { continue }
        let line =
          Array(start.bytes.prefix { $0 != 0x0A }) + (start.bytes.contains(0x0A) ? [0x0A] : [])
        guard try SnapshotChoice.holdsNew(header: line, beyond: state.vector, excluding: device)
        else { continue }
        if start.whole {
          bytes = start.bytes
        } else {
          guard let whole = try client.get(path, limit: Limit.snapshot) else { continue }
          bytes = whole
        }
      } catch let error as SyncError {
        if case .remoteUnavailable(_, let reason) = error, reason.contains("larger than") {
          skipped.append("\(path): \(reason)")
          continue
        }
        throw error
      } catch {
        skipped.append("\(path): \(error)")
        continue
      }
      let snapshot: Batch
      do {
        snapshot = try envelope.open(bytes, name: .snapshot(name))
      } catch {
        skipped.append("\(path): \(error)")
        continue
      }
      var next = DAVPullState(vector: state.vector.merged(with: snapshot.covers))
      next.own = state.own
      next.ownCount = state.ownCount
      return PulledSnapshot(name: name, snapshot: snapshot, cursor: next.encoded)
    }
    if skipped.isEmpty { snapshotsMarker = marker }
    return nil
  }

  // MARK: - Keys

  public func keys() throws(SyncError) -> RemoteKeys? {
    guard let listing = try client.list("keys"),
      let newest = KeyEnvelopeFiles.newest(among: listing.members.map(\.name))
    else { return nil }
    let path = KeyEnvelopeFiles.path(newest)
    guard let bytes = try client.get(path, limit: Limit.manifest) else { return nil }
    return try KeyEnvelopeFiles.decode(bytes, path: path, at: location)
  }

  /// Puts the next key envelope with `If-None-Match: *`, then reads it back: on a server that
  /// ignores the condition, two machines changing the passphrase at once would otherwise both
  /// think they won.
  public func putKeys(_ keys: RemoteKeys) throws(SyncError) {
    try KeyEnvelopeFiles.checkNext(keys, after: try self.keys(), at: location)
    let path = KeyEnvelopeFiles.path(keys.version)
    var outcome = try client.putOnce(path, keys.bytes)
    if outcome == .noParent {
      _ = try client.makeCollection("keys")
      outcome = try client.putOnce(path, keys.bytes)
    }
    guard outcome == .created, try client.get(path, limit: Limit.manifest) == keys.bytes else {
      throw .keysChanged(location)
    }
  }
}
