import LifelogProtocol

/// The decisions both stores make alike, apart from how they read their tables.
enum StoreRules {
  /// What a push under a name already taken meets.
  enum Taken: Equatable {
    /// The same bytes (or, compacted, the same trailer): answered `exists`.
    case same
    /// Another intact batch: answered 409, nothing overwritten.
    case conflict
    /// A stored copy that is damaged (it does not read as the batch it is filed as, or it claims
    /// the pushed batch's trailer with other bytes): the verified push replaces it, under its
    /// cursor.
    case damaged
  }

  /// Compares a verified push with the copy stored under its name, byte for byte.
  ///
  /// Comparing trailers alone would answer `exists` to the right bytes pushed over a damaged copy,
  /// and the damage could never be repaired. A compacted copy (`storedBytes` nil) has only its
  /// trailer left, which holds the SHA-256 of the rest (of a sealed batch, the nonce, a keyed hash
  /// of its plaintext): equal trailers then mean the same batch.
  static func compare(
    _ batch: IncomingBatch, storedTrailer: String, storedBytes: [UInt8]?
  ) -> Taken {
    guard let storedBytes else { return storedTrailer == batch.trailer ? .same : .conflict }
    if storedBytes == batch.bytes { return .same }
    let stored = IncomingBatch(
      user: batch.user, device: batch.device, seq: batch.seq, bytes: storedBytes, rows: 0)
    // Equal trailers with other bytes: one of the two is not what its trailer says, and the
    // push was verified.
    if stored.trailer == batch.trailer { return .damaged }
    return readsAs(storedBytes, device: batch.device, seq: batch.seq) ? .conflict : .damaged
  }

  /// Whether `bytes` read as batch `seq` of `device`: a plain batch verified as a push is
  /// (``BatchCodec/verify(_:hexDigest:)``), a sealed one by its header (the server has no key for the rest).
  static func readsAs(_ bytes: [UInt8], device: String, seq: Int) -> Bool {
    let header: Batch
    if let sealed = try? SealedHeader(bytes) {
      header = sealed.batch
    } else if let plain = try? BatchCodec.verify(bytes, hexDigest: ServerDigest.hexDigest) {
      header = plain.header
    } else {
      return false
    }
    return header.kind == .batch && header.device == device && header.seq == seq
  }

  /// Throws 409 unless one of the snapshots (their `covers` JSON) holds `device`'s batches
  /// through `seq`: compaction deletes only what a snapshot holds.
  static func checkCovered(device: String, through seq: Int, by covers: [String]) throws {
    let covered = covers.map { (try? VersionVector(parsing: $0))?[device] ?? 0 }.max() ?? 0
    guard covered >= seq else {
      throw HTTPError(
        409, APIErrorCode.notCovered,
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
