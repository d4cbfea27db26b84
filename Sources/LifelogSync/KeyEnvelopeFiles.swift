/// The key envelopes of an encrypted remote made of files (docs/sync-protocol.md §4).
///
/// They are `keys/<version>.json`, version zero-padded, each written once. These are the
/// decisions a folder remote and a WebDAV remote share, on names and bytes each has already read.
enum KeyEnvelopeFiles {
  /// The file name of envelope `version`.
  static func name(_ version: Int) -> String { FileRemote.padded(version) + ".json" }

  /// Its path from the remote's root.
  static func path(_ version: Int) -> String { "keys/" + name(version) }

  /// The newest version among the file `names` in `keys/`; nil when none is an envelope's name.
  static func newest(among names: some Sequence<String>) -> Int? {
    names.compactMap { FileRemote.number(inName: $0, suffix: ".json") }.max()
  }

  /// The envelope in `bytes`, read from `path` of the remote at `location`.
  static func decode(
    _ bytes: [UInt8], path: String, at location: String
  ) throws(SyncError) -> RemoteKeys {
    do {
      return try RemoteKeys(bytes: bytes)
    } catch {
      throw .remoteUnavailable(
        location, reason: "its key envelope '\(path)' cannot be read: \(error)")
    }
  }

  /// Refuses to write `keys` unless it is the version after `newest`: another machine changed
  /// the passphrase since this one read the envelopes.
  static func checkNext(
    _ keys: RemoteKeys, after newest: RemoteKeys?, at location: String
  ) throws(SyncError) {
    guard keys.version == (newest?.version ?? 0) + 1 else { throw .keysChanged(location) }
  }
}
