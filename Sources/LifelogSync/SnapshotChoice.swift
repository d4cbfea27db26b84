import LifelogProtocol

/// Which snapshot a remote made of files offers a reader (docs/sync-protocol.md §4): the
/// decisions a folder remote and a WebDAV remote share, on names and header lines each has
/// already read.
///
/// Not only the newest counts: one named older (written on a machine whose clock is behind, or
/// before the newest one's writer had seen it) may hold batches that were since deleted. The
/// header says what a snapshot covers, so those with nothing new are not read whole.
enum SnapshotChoice {
  static let suffix = ".snapshot"

  /// The snapshot files among the `names` listed in `snapshots/`, newest name first.
  ///
  /// Each comes with the name it goes by. A hidden file (a copy still under way) is none.
  static func newestFirst(_ names: [String]) -> [(file: String, name: String)] {
    names.filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }.sorted(by: >).map {
      (file: $0, name: String($0.dropLast(suffix.count)))
    }
  }

  /// Whether a snapshot with the header `line` holds batches of devices other than `device`
  /// (the reader) that `vector` has not reached: only then is it worth reading whole.
  ///
  /// - Throws: ``BatchError`` for a header refused outright (covers keys that are not device
  ///   ids, say), which the caller names.
  static func holdsNew(
    header line: [UInt8], beyond vector: VersionVector, excluding device: String
  ) throws(BatchError) -> Bool {
    let header = try BatchCodec.header(of: line)
    return header.kind == .snapshot
      && !vector.covers(VersionVector(header.covers.seqs.filter { $0.key != device }))
  }
}
