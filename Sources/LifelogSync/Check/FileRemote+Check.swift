import LifelogCore

/// `lifelog check` on a folder remote: every file under `devices/` and `snapshots/` by name, so a
/// batch missing between two others shows as a gap (a pull stops at the first missing seq and
/// never sees the ones after it).
extension FileRemote: InventoriedRemote {
  func inventory(into check: RemoteCheck, deadline: Deadline) throws {
    for device in try visibleNames(in: root + "/devices") {
      let folder = root + "/devices/" + device
      guard SyncStore.isPathSafe(device), FileSystem.isDirectory(folder) else {
        check.stray(
          place: "devices/" + CheckText.shown(device),
          reason: "it is not a device's folder of batches")
        continue
      }
      for file in try visibleNames(in: folder) {
        try deadline.check()
        let place = "devices/\(device)/\(CheckText.shown(file))"
        // Only the names push writes: 10 digits from 1, so `3.batch` or `0000000003.batch.1` is stray.
        guard file.hasSuffix(".batch"), let seq = Int(file.dropLast(".batch".count)), seq >= 1,
          file == FileRemote.padded(seq) + ".batch"
        else {
          check.stray(place: place, reason: "it is not named like a batch, so no sync reads it")
          continue
        }
        read(folder + "/" + file, as: .batch(device: device, seq: seq), place: place, into: check)
      }
    }
    for file in try visibleNames(in: root + "/snapshots") {
      try deadline.check()
      let place = "snapshots/" + CheckText.shown(file)
      let name = String(file.dropLast(".snapshot".count))
      guard file.hasSuffix(".snapshot"), !name.isEmpty else {
        check.stray(place: place, reason: "it is not named like a snapshot, so no sync reads it")
        continue
      }
      read(root + "/snapshots/" + file, as: .snapshot(name), place: place, into: check)
    }
  }

  /// The names in a folder that are not hidden (temporary files of a write in progress start
  /// with a dot), sorted; none when the folder is missing.
  private func visibleNames(in folder: String) throws -> [String] {
    (try FileSystem.list(folder) ?? []).filter { !$0.hasPrefix(".") }.sorted()
  }

  private func read(
    _ path: String, as name: BatchEnvelope.Name, place: String, into check: RemoteCheck
  ) {
    do {
      // Gone since it was listed: a compaction running now; nothing to check.
      guard let bytes = try FileSystem.read(path) else { return }
      check.examine(name, place: place, bytes: bytes)
    } catch SyncError.remoteUnavailable(_, let reason) {
      check.unreadable(name, place: place, reason: reason)
    } catch {
      check.unreadable(name, place: place, reason: "\(error)")
    }
  }
}
