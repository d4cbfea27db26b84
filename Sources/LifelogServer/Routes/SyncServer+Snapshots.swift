import LifelogCore
import LifelogProtocol

/// `PUT`, `GET` and `HEAD` of `/v1/snapshots/{name}` and `/v1/snapshots/latest`
/// (docs/http-api.md).
extension SyncServer {
  func putSnapshot(name: String, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    let bytes = request.body
    let (snapshot, _) = try decode(bytes, what: "snapshot", user: user)
    guard snapshot.kind == .snapshot else {
      throw HTTPError(400, APIErrorCode.badBatch, "The body is a batch, not a snapshot")
    }
    // Served back as the Lifelog-Snapshot-Device header and compared with the exclude argument:
    // a device id like any other, never a line break or a stray character.
    guard Router.isName(snapshot.device) else {
      throw HTTPError(
        400, APIErrorCode.badBatch,
        "The snapshot's header names a device id that is not 1–\(Router.maximumNameLength) of letters, digits and '-'"
      )
    }
    let header = Batch(
      kind: .snapshot, device: snapshot.device, seq: snapshot.seq, created: snapshot.created,
      covers: snapshot.covers,
      changes: [])
    let outcome = try pool.withStore {
      try $0.storeSnapshot(
        user: user, name: name, header: header, bytes: bytes, sha256: SHA256.hexDigest(bytes))
    }
    var object = JSONObjectWriter()
    object.add("name", name)
    return try SyncServer.stored(
      outcome.put, object,
      conflict: "A different snapshot named '\(name)' is already stored; nothing was overwritten")
  }

  /// `GET /v1/snapshots/latest` (with `name` nil) and `GET /v1/snapshots/{name}`; `HEAD` alike.
  func snapshot(named name: String?, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    let after = try request.query(APIQuery.after).map { text throws(HTTPError) in
      try ServerCursor(token: text)
    }
    let excluded = try request.query(APIQuery.exclude).map { text throws(HTTPError) in
      try Router.name(Substring(text), what: "device id")
    }
    let metaOnly = try wantsMeta(request)
    let found: (SnapshotRecord, [UInt8])? = try pool.withStore { store in
      let record =
        if let name { try store.snapshotRecord(user: user, name: name) } else {
          try store.latestSnapshot(user: user, beyond: after, excluding: excluded)
        }
      guard let record else { return nil }
      return (record, metaOnly ? [] : try store.snapshotBytes(id: record.id))
    }
    guard let (record, bytes) = found else {
      throw HTTPError.notFound(
        name.map { "No snapshot is named '\($0)'" }
          ?? "No snapshot holds batches that this cursor has not reached")
    }
    if !metaOnly, bytes.isEmpty {
      // A newer snapshot replaced it between reading its record and its bytes (no snapshot is
      // empty): ask again rather than answer 200 with no body.
      throw HTTPError.unavailable("The snapshot was replaced while it was read; try again")
    }
    let cursor = (after ?? ServerCursor()).merging(record, excluding: excluded)
    if metaOnly {
      let body = SnapshotDescription(
        name: record.name, device: record.device, created: record.created,
        covers: record.covers, size: record.size, sha256: record.sha256, cursor: cursor.token)
      return .json(200, body.encoded)
    }
    return HTTPResponse(
      status: 200,
      headers: [
        (APIHeader.contentType, ContentType.snapshot),
        (APIHeader.snapshotName, record.name),
        (APIHeader.snapshotDevice, record.device),
        (APIHeader.snapshotCreated, String(record.created)),
        (APIHeader.snapshotCovers, record.covers.json),
        (APIHeader.snapshotSHA256, record.sha256),
        (APIHeader.cursor, cursor.token),
      ], body: bytes)
  }

  /// `?meta=1` asks for the record as JSON; `meta` has no other value.
  func wantsMeta(_ request: HTTPRequest) throws(HTTPError) -> Bool {
    guard let meta = request.query(APIQuery.meta) else { return false }
    guard meta == "1" else { throw HTTPError.badRequest("'meta' takes only the value 1") }
    return true
  }
}
