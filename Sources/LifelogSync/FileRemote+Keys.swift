import LifelogCore
import LifelogProtocol

/// The key envelopes of an encrypted folder remote: `keys/<version>.json`, each written once
/// (``KeyEnvelopeFiles``).
extension FileRemote {
  public func keys() throws(SyncError) -> RemoteKeys? {
    guard let folder = try folder("keys") else { return nil }
    let names = try checked { () throws(RemoteFileError) in try folder.list() }
    guard let newest = KeyEnvelopeFiles.newest(among: names) else { return nil }
    let read = try checked { () throws(RemoteFileError) in
      try folder.read(KeyEnvelopeFiles.name(newest), limit: Limit.manifest)
    }
    guard let bytes = read else { return nil }
    return try KeyEnvelopeFiles.decode(bytes, path: keysPath(version: newest), at: root)
  }

  /// Writes the next key envelope under a name no other machine can take at the same moment: the
  /// file is written whole under a temporary name, then hard-linked into place, which fails when
  /// the name exists.
  public func putKeys(_ keys: RemoteKeys) throws(SyncError) {
    try KeyEnvelopeFiles.checkNext(keys, after: try self.keys(), at: root)
    guard let folder = try folder("keys", creating: true) else { throw .keysChanged(root) }
    let name = KeyEnvelopeFiles.name(keys.version)
    guard
      try checked({ () throws(RemoteFileError) in try folder.writeExclusively(name, keys.bytes) })
    else {
      throw .keysChanged(root)
    }
  }

  func keysPath(version: Int) -> String { root + "/" + KeyEnvelopeFiles.path(version) }
}
