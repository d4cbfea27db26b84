/// The paths of the HTTP API (docs/http-api.md), for the client that asks and the server's router
/// that matches them: one spelling of each, so the two cannot drift apart.
///
/// Names in paths (device ids, snapshot names) follow ``isName(_:)``; the builders take names the
/// caller has already checked and never escape them.
public enum APIPath {
  /// The version of the HTTP API, which is also the first path segment (`/v1`).
  public static let version = 1
  /// The first segment of every path.
  public static let prefix = "/v\(version)"

  /// The segments after ``prefix`` that name a resource, as the router matches them.
  public enum Segment {
    public static let info = "info"
    public static let manifest = "manifest"
    public static let batches = "batches"
    public static let changes = "changes"
    public static let snapshots = "snapshots"
    /// `snapshots/latest`: the newest snapshot a cursor needs, not a snapshot's name.
    public static let latest = "latest"
    public static let keys = "keys"
  }

  /// `GET /v1/info`, the only path that needs no token.
  public static let info = prefix + "/" + Segment.info
  /// `GET /v1/manifest`: the remote's id, format and whether it is encrypted.
  public static let manifest = prefix + "/" + Segment.manifest
  /// `GET /v1/changes`, before its query.
  public static let changes = prefix + "/" + Segment.changes
  /// `GET /v1/keys`: the newest key envelope.
  public static let keys = prefix + "/" + Segment.keys
  /// `/v1/snapshots/`, which every snapshot path starts with.
  public static let snapshots = prefix + "/" + Segment.snapshots + "/"
  /// `GET /v1/snapshots/latest`, before its query.
  public static let latestSnapshot = snapshots + Segment.latest

  /// `GET /v1/batches/{device}` (count) and `DELETE /v1/batches/{device}?through=` (compact).
  public static func batches(device: String) -> String {
    prefix + "/" + Segment.batches + "/" + device
  }

  /// `PUT /v1/batches/{device}/{seq}`: a push.
  public static func batch(device: String, seq: Int) -> String {
    batches(device: device) + "/" + String(seq)
  }

  /// `GET`/`PUT /v1/snapshots/{name}`: one snapshot.
  public static func snapshot(_ name: String) -> String { snapshots + name }

  /// `PUT /v1/keys/{version}`: a new key envelope.
  public static func keyEnvelope(version: Int) -> String { keys + "/" + String(version) }

  /// The longest device id or snapshot name a path may hold.
  public static let maximumNameLength = 128

  /// Whether `text` may be a device id or snapshot name in a path: 1–128 of `[A-Za-z0-9-]`.
  ///
  /// So `..`, `/` or `%2F` can never reach a store or a folder name. Both sides check it: the server
  /// before anything looks at a path, the client before it trusts a name the server sent.
  public static func isName(_ text: some StringProtocol) -> Bool {
    let utf8 = text.utf8
    return !utf8.isEmpty && utf8.count <= maximumNameLength
      && utf8.allSatisfy {
        ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
          || $0 == 0x2D
      }
  }
}

/// The `Content-Type` of each body the API sends or takes.
public enum ContentType {
  /// Every answer that is not a file: info, manifest, counts, errors.
  public static let json = "application/json"
  /// A batch as ``BatchCodec`` writes it, plain or sealed (``SealedHeader``).
  public static let batch = "application/vnd.lifelog.batch"
  /// A snapshot, plain or sealed.
  public static let snapshot = "application/vnd.lifelog.snapshot"
  /// A page of `GET /v1/changes` (``ChangesBody``).
  public static let changes = "application/vnd.lifelog.changes"
  /// A key envelope: bytes the server keeps and never reads.
  public static let keyEnvelope = "application/octet-stream"
}

/// The `code` of an error answer (`{"error":{"code","message"}}`, docs/http-api.md): a stable word
/// that scripts and clients may test, unlike the message, which is for people.
public enum APIErrorCode {
  public static let badRequest = "bad_request"
  public static let unauthorized = "unauthorized"
  public static let notFound = "not_found"
  public static let methodNotAllowed = "method_not_allowed"
  public static let conflict = "conflict"
  public static let tooLarge = "too_large"
  public static let rateLimited = "rate_limited"
  public static let unavailable = "unavailable"
  /// More requests at once than the server takes (503).
  public static let overloaded = "overloaded"
  /// The server failed; its log says why (500).
  public static let `internal` = "internal"
  /// The body is not a readable batch or snapshot, or not the kind the path names.
  public static let badBatch = "bad_batch"
  /// The batch's header names another device or seq than its path.
  public static let nameMismatch = "name_mismatch"
  /// A plain batch or snapshot sent to an encrypted remote.
  public static let notSealed = "not_sealed"
  /// `GET /v1/keys` on a remote that is not encrypted.
  public static let noKeys = "no_keys"
  /// Compaction asked for batches that no snapshot covers.
  public static let notCovered = "not_covered"
}
