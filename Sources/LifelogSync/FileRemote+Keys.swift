import LifelogCore
import LifelogProtocol

/// The key envelopes of an encrypted folder remote: `keys/<version>.json`, each written once.
extension FileRemote {
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
}
