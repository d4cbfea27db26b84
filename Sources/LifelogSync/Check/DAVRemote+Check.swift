import LifelogCore
import LifelogProtocol

/// `lifelog check` on a WebDAV remote: as on a folder remote, every file under `devices/` and
/// `snapshots/` by name (one `PROPFIND` per folder, one `GET` per file), so a batch missing between
/// two others shows as a gap. A file too large for its cap is damaged; the remote as a whole
/// failing to answer is exit 69.
extension DAVRemote: InventoriedRemote {
  func inventory(into check: RemoteCheck, deadline: Deadline) throws {
    guard try client.list("") != nil else {
      throw SyncError.remoteUnavailable(location, reason: "the folder does not exist")
    }
    if let devices = try client.list("devices") {
      for entry in devices.members.sorted(by: { $0.name < $1.name })
      where !entry.name.hasPrefix(".") {
        try deadline.check()
        let place = "devices/" + CheckText.shown(entry.name)
        guard entry.isCollection, APIPath.isName(entry.name),
          let folder = try client.list("devices/\(entry.name)")
        else {
          check.stray(place: place, reason: "it is not a device's folder of batches")
          continue
        }
        for file in folder.members.map(\.name).sorted() where !file.hasPrefix(".") {
          try deadline.check()
          let place = "devices/\(entry.name)/\(CheckText.shown(file))"
          guard let seq = FileRemote.number(inName: file, suffix: ".batch") else {
            check.stray(place: place, reason: "it is not named like a batch, so no sync reads it")
            continue
          }
          try read(
            "devices/\(entry.name)/\(file)", limit: Limit.batch,
            as: .batch(device: entry.name, seq: seq), place: place, into: check)
        }
      }
    }
    guard let snapshots = try client.list("snapshots") else { return }
    for file in snapshots.members.map(\.name).sorted() where !file.hasPrefix(".") {
      try deadline.check()
      let place = "snapshots/" + CheckText.shown(file)
      let name = String(file.dropLast(".snapshot".count))
      guard file.hasSuffix(".snapshot"), APIPath.isName(name) else {
        check.stray(place: place, reason: "it is not named like a snapshot, so no sync reads it")
        continue
      }
      try read(
        "snapshots/\(file)", limit: Limit.snapshot, as: .snapshot(name), place: place, into: check)
    }
  }

  private func read(
    _ path: String, limit: Int, as name: BatchEnvelope.Name, place: String,
    into check: RemoteCheck
  ) throws {
    do {
      // Gone since it was listed: a compaction running now; nothing to check.
      guard let bytes = try client.get(path, limit: limit) else { return }
      check.examine(name, place: place, bytes: bytes)
    } catch {
      guard case .remoteUnavailable(_, let reason) = error, reason.contains("larger than") else {
        throw error
      }
      check.unreadable(name, place: place, reason: reason)
    }
  }
}
