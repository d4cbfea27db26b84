import LifelogCore
import LifelogProtocol

/// `PUT`, `GET` and `DELETE` of `/v1/batches/{device}[/{seq}]` (docs/http-api.md).
extension SyncServer {
  func putBatch(device: String, seq: Int, request: HTTPRequest, user: Int64) throws -> HTTPResponse
  {
    let bytes = request.body
    let (batch, rows) = try decode(bytes, what: "batch", user: user)
    guard batch.kind == .batch else {
      throw HTTPError(400, APIErrorCode.badBatch, "The body is a snapshot, not a batch")
    }
    guard batch.device == device, batch.seq == seq else {
      throw HTTPError(
        400, APIErrorCode.nameMismatch,
        "The batch's header names device \(batch.device) seq \(batch.seq), not the path's \(device) \(seq)"
      )
    }
    let outcome = try committer.store(
      IncomingBatch(
        user: user, device: device, seq: seq, bytes: bytes, rows: rows))
    if outcome == .userRemoved {
      throw HTTPError(401, APIErrorCode.unauthorized, "The token's user was removed")
    }
    var object = JSONObjectWriter()
    object.add("device", device)
    object.add("seq", seq)
    if case .created(let cursor) = outcome { object.addRaw("cursor", String(cursor)) }
    if case .exists(let cursor) = outcome { object.addRaw("cursor", String(cursor)) }
    return try SyncServer.stored(
      outcome.put, object,
      conflict:
        "A different batch \(seq) of device \(device) is already stored; nothing was overwritten")
  }

  /// The answer to a `PUT` of an immutable object (batch, snapshot, key envelope): 201 when it was
  /// stored now, 200 when the same bytes were already there (a retried request), 409 when other
  /// bytes hold the name — never an overwrite.
  static func stored(
    _ outcome: PutOutcome, _ object: JSONObjectWriter, conflict: String
  ) throws -> HTTPResponse {
    var object = object
    switch outcome {
    case .created:
      object.add("status", "created")
      return .json(201, object)
    case .exists:
      object.add("status", "exists")
      return .json(200, object)
    case .conflict:
      throw HTTPError.conflict(conflict)
    }
  }

  /// Reads a pushed batch or snapshot and its row count: a plain one is verified as a whole
  /// (``BatchCodec/verify(_:hexDigest:)``: trailer, checksum, header, row count) without decoding its rows,
  /// which the server stores as bytes and never merges; of a sealed one, which the server has no
  /// key for, only the plaintext header is read (docs/security.md).
  ///
  /// A plain body is refused on an account that holds a key envelope: an encrypted remote must
  /// never hold plaintext (a lifelog older than 0.3.0, or a machine that joined it wrongly).
  func decode(_ bytes: [UInt8], what: String, user: Int64) throws -> (Batch, rows: Int) {
    guard !bytes.isEmpty else {
      throw HTTPError(400, APIErrorCode.badBatch, "The body is empty; send the \(what)'s bytes")
    }
    if let sealed = try? SealedHeader(bytes) { return (sealed.batch, sealed.changes) }
    let verified: (header: Batch, rows: Int)
    do {
      verified = try BatchCodec.verify(bytes, hexDigest: ServerDigest.hexDigest)
    } catch {
      throw HTTPError(400, APIErrorCode.badBatch, "The \(what) cannot be read: \(error)")
    }
    if try pool.withStore({ try $0.latestKeyEnvelope(user: user) }) != nil {
      throw HTTPError(
        400, APIErrorCode.notSealed,
        "This remote is encrypted: it takes only sealed batches and snapshots; nothing was stored. Join it with "
          + "lifelog 0.3.0 or later and its passphrase")
    }
    return verified
  }

  func batchCount(device: String, user: Int64) throws -> HTTPResponse {
    let (count, highest) = try pool.withStore { try $0.batchCount(user: user, device: device) }
    return .json(
      200, BatchCountBody(device: device, batches: count, highestSeq: highest).encoded)
  }

  func deleteBatches(device: String, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    guard let text = request.query(APIQuery.through) else {
      throw HTTPError.badRequest("Say which batches to delete with '?through=<seq>'")
    }
    let through = try Router.seq(Substring(text))
    let deleted = try pool.withStore {
      try $0.deleteBatches(user: user, device: device, through: through)
    }
    var object = JSONObjectWriter()
    object.add("device", device)
    object.add("through", through)
    object.add("deleted", deleted)
    return .json(200, object)
  }
}
