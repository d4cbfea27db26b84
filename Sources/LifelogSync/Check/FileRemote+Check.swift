import LifelogCore
import LifelogProtocol

/// `lifelog check` on a folder remote: every file under `devices/` and `snapshots/` by name, so a
/// batch missing between two others shows as a gap (a pull stops at the first missing seq and
/// never sees the ones after it). Read through ``RemoteFolder``: no link is followed, only regular
/// files are read, and each only up to its cap.
extension FileRemote: InventoriedRemote {
  func inventory(into check: RemoteCheck, deadline: Deadline) throws {
    guard let root = try opened({ () throws(RemoteFileError) in try RemoteFolder.root(self.root) })
    else {
      throw SyncError.remoteUnavailable(
        self.root, reason: "the folder does not exist (is the drive mounted?)")
    }
    if let devices = try opened({ () throws(RemoteFileError) in try root.folder("devices") }) {
      for device in try visibleNames(in: devices) {
        let place = "devices/" + CheckText.shown(device)
        let folder: RemoteFolder?
        do {
          folder = APIPath.isName(device) ? try devices.folder(device) : nil
        } catch {
          folder = nil
        }
        guard let folder else {
          check.stray(place: place, reason: "it is not a device's folder of batches")
          continue
        }
        try inventory(device: device, in: folder, into: check, deadline: deadline)
      }
    }
    guard let snapshots = try opened({ () throws(RemoteFileError) in try root.folder("snapshots") })
    else { return }
    for file in try visibleNames(in: snapshots) {
      try deadline.check()
      let place = "snapshots/" + CheckText.shown(file)
      let name = String(file.dropLast(".snapshot".count))
      guard file.hasSuffix(".snapshot"), !name.isEmpty else {
        check.stray(place: place, reason: "it is not named like a snapshot, so no sync reads it")
        continue
      }
      read(
        file, in: snapshots, limit: Limit.snapshot, as: .snapshot(name), place: place, into: check)
    }
  }

  private func inventory(
    device: String, in folder: RemoteFolder, into check: RemoteCheck, deadline: Deadline
  ) throws {
    for file in try visibleNames(in: folder) {
      try deadline.check()
      let place = "devices/\(device)/\(CheckText.shown(file))"
      // Only the names push writes: 10 digits from 1, so `3.batch` or `0000000003.batch.1` is stray.
      guard let seq = FileRemote.number(inName: file, suffix: ".batch") else {
        check.stray(place: place, reason: "it is not named like a batch, so no sync reads it")
        continue
      }
      read(
        file, in: folder, limit: Limit.batch, as: .batch(device: device, seq: seq), place: place,
        into: check)
    }
  }

  /// A folder of the remote, or nil when it is missing; one that cannot be opened (a link, a file)
  /// makes the remote unreadable as a whole.
  private func opened(_ body: () throws(RemoteFileError) -> RemoteFolder?) throws -> RemoteFolder? {
    do {
      return try body()
    } catch {
      throw SyncError.remoteUnavailable(root, reason: error.description)
    }
  }

  /// The names in a folder that are not hidden (temporary files of a write in progress start
  /// with a dot), sorted.
  private func visibleNames(in folder: RemoteFolder) throws -> [String] {
    do {
      return try folder.list().filter { !$0.hasPrefix(".") }.sorted()
    } catch {
      throw SyncError.remoteUnavailable(root, reason: error.description)
    }
  }

  private func read(
    _ file: String, in folder: RemoteFolder, limit: Int, as name: BatchEnvelope.Name, place: String,
    into check: RemoteCheck
  ) {
    do {
      // Gone since it was listed: a compaction running now; nothing to check.
      guard let bytes = try folder.read(file, limit: limit) else { return }
      check.examine(name, place: place, bytes: bytes)
    } catch {
      check.unreadable(name, place: place, reason: error.description)
    }
  }
}
