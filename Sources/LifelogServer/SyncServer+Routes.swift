import LifelogCore
import LifelogProtocol

/// The answer to each route (docs/http-api.md).
extension SyncServer {
  func answer(_ route: Route, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    switch route {
    case .info: return info()
    case .manifest: return try manifest(user: user)
    case .putBatch(let device, let seq):
      return try putBatch(device: device, seq: seq, request: request, user: user)
    case .batchCount(let device): return try batchCount(device: device, user: user)
    case .deleteBatches(let device):
      return try deleteBatches(device: device, request: request, user: user)
    case .changes: return try changes(request: request, user: user)
    case .putSnapshot(let name): return try putSnapshot(name: name, request: request, user: user)
    case .latestSnapshot: return try snapshot(named: nil, request: request, user: user)
    case .snapshot(let name): return try snapshot(named: name, request: request, user: user)
    case .keys: return try keys(user: user)
    case .putKeys(let version): return try putKeys(version: version, request: request, user: user)
    }
  }

  /// The version of the HTTP API (the path prefix is `/v1`).
  public static let apiVersion = APIPath.version

  func info() -> HTTPResponse {
    var limits = JSONObjectWriter()
    limits.add("maxBodyBytes", configuration.listener.maxBodyBytes)
    limits.add("maxPageBatches", configuration.pageLimits.batches)
    limits.add("maxPageRows", configuration.pageLimits.rows)
    limits.add("maxPageBytes", configuration.pageLimits.bytes)
    limits.add("requestsPerSecond", configuration.requestsPerSecond)
    limits.add("burst", configuration.burst)
    limits.add("maxConcurrentRequests", configuration.maxConcurrentRequests)
    var object = JSONObjectWriter()
    object.add("lifelog", "server")
    object.add("version", LifelogVersion.current)
    object.add("api", SyncServer.apiVersion)
    object.add("format", BatchCodec.format)
    object.addRaw("limits", limits.result)
    return .json(200, object)
  }

  func manifest(user: Int64) throws -> HTTPResponse {
    let (found, encrypted) = try pool.withStore {
      (try $0.user(id: user), try $0.latestKeyEnvelope(user: user) != nil)
    }
    guard let found else { throw HTTPError(401, "unauthorized", "The token's user was removed") }
    var object = JSONObjectWriter()
    object.add("lifelog", "remote")
    object.add("format", BatchCodec.format)
    object.add("remoteId", found.remoteID)
    object.add("minVersion", LifelogVersion.minimumWriter(encrypted: encrypted))
    object.add("user", found.name)
    if encrypted { object.add("encrypted", true) }
    return .json(200, object)
  }

  // MARK: - Batches

  func putBatch(device: String, seq: Int, request: HTTPRequest, user: Int64) throws -> HTTPResponse
  {
    let bytes = request.body
    let (batch, rows) = try decode(bytes, what: "batch", user: user)
    guard batch.kind == .batch else {
      throw HTTPError(400, "bad_batch", "The body is a snapshot, not a batch")
    }
    guard batch.device == device, batch.seq == seq else {
      throw HTTPError(
        400, "name_mismatch",
        "The batch's header names device \(batch.device) seq \(batch.seq), not the path's \(device) \(seq)"
      )
    }
    let outcome = try committer.store(
      IncomingBatch(
        user: user, device: device, seq: seq, bytes: bytes, rows: rows))
    if outcome == .userRemoved {
      throw HTTPError(401, "unauthorized", "The token's user was removed")
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

  /// Reads a pushed batch or snapshot and its row count: a plain one is decoded and verified whole;
  /// of a sealed one, which the server has no key for, only the plaintext header is read
  /// (docs/security.md).
  ///
  /// A plain body is refused on an account that holds a key envelope: an encrypted remote must
  /// never hold plaintext (a lifelog older than 0.3.0, or a machine that joined it wrongly).
  func decode(_ bytes: [UInt8], what: String, user: Int64) throws -> (Batch, rows: Int) {
    guard !bytes.isEmpty else {
      throw HTTPError(400, "bad_batch", "The body is empty; send the \(what)'s bytes")
    }
    if let sealed = try? SealedHeader(bytes) { return (sealed.batch, sealed.changes) }
    let batch: Batch
    do {
      batch = try BatchCodec.decode(bytes)
    } catch {
      throw HTTPError(400, "bad_batch", "The \(what) cannot be read: \(error)")
    }
    if try pool.withStore({ try $0.latestKeyEnvelope(user: user) }) != nil {
      throw HTTPError(
        400, "not_sealed",
        "This remote is encrypted: it takes only sealed batches and snapshots; nothing was stored. Join it with "
          + "lifelog 0.3.0 or later and its passphrase")
    }
    return (batch, batch.changes.count)
  }

  func batchCount(device: String, user: Int64) throws -> HTTPResponse {
    let (count, highest) = try pool.withStore { try $0.batchCount(user: user, device: device) }
    var object = JSONObjectWriter()
    object.add("device", device)
    object.add("batches", count)
    object.add("highestSeq", highest)
    return .json(200, object)
  }

  func deleteBatches(device: String, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    guard let text = request.query("through") else {
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

  // MARK: - Changes

  func changes(request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    let cursor = try ServerCursor(token: request.query("after") ?? "")
    let excluded = try request.query("exclude").map { text throws(HTTPError) in
      try Router.name(Substring(text), what: "device id")
    }
    var limits = configuration.pageLimits
    limits.batches = try bounded(
      request.query("limit"), name: "limit", default: min(100, limits.batches),
      maximum: limits.batches)
    limits.rows = try bounded(
      request.query("rows"), name: "rows", default: limits.rows, maximum: limits.rows)
    let page = try pool.withStore {
      try $0.changes(user: user, after: cursor, excluding: excluded, limits: limits)
    }
    return ChangesEncoding.response(page)
  }

  /// A whole number of at least 1, capped at `maximum` however many digits it has (the API says
  /// "at most this many"; a larger one asks for the most the server gives).
  func bounded(
    _ text: String?, name: String, default value: Int, maximum: Int
  ) throws(HTTPError) -> Int {
    guard let text else { return value }
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      text.contains(where: { $0 != "0" })
    else {
      throw HTTPError.badRequest(
        "'\(name)' must be a whole number from 1 (at most \(maximum) is used)")
    }
    guard let number = Int(text) else { return maximum }
    return min(number, maximum)
  }

  /// `?meta=1` asks for the record as JSON; `meta` has no other value.
  func wantsMeta(_ request: HTTPRequest) throws(HTTPError) -> Bool {
    guard let meta = request.query("meta") else { return false }
    guard meta == "1" else { throw HTTPError.badRequest("'meta' takes only the value 1") }
    return true
  }

  // MARK: - Snapshots

  func putSnapshot(name: String, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    let bytes = request.body
    let (snapshot, _) = try decode(bytes, what: "snapshot", user: user)
    guard snapshot.kind == .snapshot else {
      throw HTTPError(400, "bad_batch", "The body is a batch, not a snapshot")
    }
    // Served back as the Lifelog-Snapshot-Device header and compared with the exclude argument:
    // a device id like any other, never a line break or a stray character.
    guard Router.isName(snapshot.device) else {
      throw HTTPError(
        400, "bad_batch",
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
    let after = try request.query("after").map { text throws(HTTPError) in
      try ServerCursor(token: text)
    }
    let excluded = try request.query("exclude").map { text throws(HTTPError) in
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
      var object = JSONObjectWriter()
      object.add("name", record.name)
      object.add("device", record.device)
      object.addRaw("created", String(record.created))
      object.addRaw("covers", record.covers.json)
      object.add("size", record.size)
      object.add("sha256", record.sha256)
      object.add("cursor", cursor.token)
      return .json(200, object)
    }
    return HTTPResponse(
      status: 200,
      headers: [
        ("Content-Type", ContentType.snapshot),
        ("Lifelog-Snapshot-Name", record.name),
        ("Lifelog-Snapshot-Device", record.device),
        ("Lifelog-Snapshot-Created", String(record.created)),
        ("Lifelog-Snapshot-Covers", record.covers.json),
        ("Lifelog-Snapshot-SHA256", record.sha256),
        ("Lifelog-Cursor", cursor.token),
      ], body: bytes)
  }
}

// MARK: - Key envelopes

extension SyncServer {
  /// The largest key envelope accepted: a wrapped key and its parameters take well under 1 KiB.
  static let maximumKeyEnvelopeBytes = 64 * 1024

  func keys(user: Int64) throws -> HTTPResponse {
    guard let envelope = try pool.withStore({ try $0.latestKeyEnvelope(user: user) }) else {
      throw HTTPError(404, "no_keys", "This remote holds no key envelope: it is not encrypted")
    }
    return HTTPResponse(
      status: 200,
      headers: [
        ("Content-Type", ContentType.keyEnvelope),
        ("Lifelog-Key-Version", String(envelope.version)),
      ], body: envelope.bytes)
  }

  func putKeys(version: Int64, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    let bytes = request.body
    guard !bytes.isEmpty else {
      throw HTTPError.badRequest("The body is empty; send the key envelope's bytes")
    }
    guard bytes.count <= SyncServer.maximumKeyEnvelopeBytes else {
      throw HTTPError(
        413, "too_large",
        "A key envelope may be at most \(SyncServer.maximumKeyEnvelopeBytes) bytes, not \(bytes.count)"
      )
    }
    let outcome = try pool.withStore {
      try $0.putKeyEnvelope(user: user, version: version, bytes: bytes)
    }
    var object = JSONObjectWriter()
    object.addRaw("version", String(version))
    return try SyncServer.stored(
      outcome, object,
      conflict:
        "Key envelope version \(version) is taken or not the next one (or, for version 1, the remote already "
        + "holds unencrypted data); read GET /v1/keys and try again")
  }
}

/// The body of `GET /v1/changes`: one JSON line indexing the page, then each batch's bytes
/// (``ChangesBody``, the wire format the client reads).
public enum ChangesEncoding {
  public static let contentType = ContentType.changes

  public static func response(_ page: ChangesPage) -> HTTPResponse {
    HTTPResponse(status: 200, headers: [("Content-Type", contentType)], body: page.body.encoded)
  }
}
