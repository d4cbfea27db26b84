/// The header names of the HTTP API (docs/http-api.md) that client and server both name.
///
/// One spelling of each, so the two cannot drift apart. HTTP header names are case-insensitive;
/// these are the spellings the server sends and the client writes.
public enum APIHeader {
  /// The bearer token of every request but `GET /v1/info`: `Authorization: Bearer <token>`.
  public static let authorization = "Authorization"
  /// The scheme of ``authorization``'s value, before a space and the token.
  public static let bearer = "Bearer"
  /// The kind of a body, one of ``ContentType``.
  public static let contentType = "Content-Type"
  /// Seconds to wait before asking again, on a 429 or 503 answer.
  public static let retryAfter = "Retry-After"
  /// The cursor after merging the snapshot a `GET /v1/snapshots/…` answer carries.
  public static let cursor = "Lifelog-Cursor"
  /// The name of the snapshot in the body.
  public static let snapshotName = "Lifelog-Snapshot-Name"
  /// The device id the snapshot's header names.
  public static let snapshotDevice = "Lifelog-Snapshot-Device"
  /// When the snapshot was made, as its header says.
  public static let snapshotCreated = "Lifelog-Snapshot-Created"
  /// The version vector the snapshot covers, as JSON.
  public static let snapshotCovers = "Lifelog-Snapshot-Covers"
  /// The SHA-256 of the snapshot's bytes, in hex.
  public static let snapshotSHA256 = "Lifelog-Snapshot-SHA256"
  /// The version of the key envelope `GET /v1/keys` answers with.
  public static let keyVersion = "Lifelog-Key-Version"
}

/// The query argument names of the HTTP API (docs/http-api.md), for the client that asks and the
/// server that reads them.
public enum APIQuery {
  /// A cursor token: only what is beyond it (`/v1/changes`, `/v1/snapshots/latest`).
  public static let after = "after"
  /// A device id whose batches and snapshots are left out (its own).
  public static let exclude = "exclude"
  /// The most rows a page of `GET /v1/changes` holds.
  public static let rows = "rows"
  /// The most batches a page of `GET /v1/changes` holds.
  public static let limit = "limit"
  /// `meta=1`: a snapshot's record as JSON instead of its bytes.
  public static let meta = "meta"
  /// The highest seq that `DELETE /v1/batches/{device}` deletes.
  public static let through = "through"
}
