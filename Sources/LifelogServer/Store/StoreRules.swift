import LifelogSync

/// The decisions both stores make alike, apart from how they read their tables.
enum StoreRules {
  /// Throws 409 unless one of the snapshots (their `covers` JSON) holds `device`'s batches
  /// through `seq`: compaction deletes only what a snapshot holds.
  static func checkCovered(device: String, through seq: Int, by covers: [String]) throws {
    let covered = covers.map { (try? VersionVector(parsing: $0))?[device] ?? 0 }.max() ?? 0
    guard covered >= seq else {
      throw HTTPError(
        409, "not_covered",
        "No snapshot covers \(device)'s batches through \(seq) (the newest covers \(covered)); put a snapshot first"
      )
    }
  }

  /// The newest snapshot of `candidates` (newest first), or with `excluded`, the newest written
  /// by another device that holds a batch of a device other than `excluded` which `cursor` has
  /// neither passed nor holds through its floor (docs/http-api.md, "Snapshots").
  ///
  /// - Parameters:
  ///   - anyNewer: whether a batch of a device other than `excluded` lies after a cursor position.
  ///   - reaches: whether a batch of `device` with `floor < seq <= through` lies after `position`.
  static func latestSnapshot(
    _ candidates: [SnapshotRecord], beyond cursor: ServerCursor?, excluding excluded: String?,
    anyNewer: (_ position: Int64) throws -> Bool,
    reaches: (_ device: String, _ floor: Int, _ through: Int, _ position: Int64) throws -> Bool
  ) throws -> SnapshotRecord? {
    let candidates = candidates.filter { $0.device != excluded }
    guard let cursor else { return candidates.first }
    guard try anyNewer(cursor.position) else { return nil }
    for snapshot in candidates {
      for (device, seq) in snapshot.covers.seqs
      where device != excluded && seq > cursor.floor[device] {
        if try reaches(device, cursor.floor[device], seq, cursor.position) { return snapshot }
      }
    }
    return nil
  }
}
