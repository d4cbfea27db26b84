import LifelogCore

/// The body of `GET /v1/snapshots/latest?meta=1` (and of a named snapshot with `meta=1`): one
/// stored snapshot, and the cursor a reader holds once it has merged it (docs/http-api.md).
///
/// The server writes it with ``encoded``; the HTTP remote reads it with ``init(parsing:)``. The
/// same facts travel as headers beside a snapshot's bytes (``APIHeader``).
public struct SnapshotDescription: Equatable, Sendable {
  /// The snapshot's name, a path name (``APIPath/isName(_:)``).
  public var name: String
  public var device: String?
  /// Unix milliseconds.
  public var created: Int64?
  public var covers: VersionVector?
  public var size: Int?
  /// The SHA-256 of the stored bytes, lower-case hex.
  public var sha256: String?
  /// Where a pull goes on after this snapshot: a ``CursorToken``.
  public var cursor: String

  public init(
    name: String, device: String? = nil, created: Int64? = nil, covers: VersionVector? = nil,
    size: Int? = nil, sha256: String? = nil, cursor: String
  ) {
    self.name = name
    self.device = device
    self.created = created
    self.covers = covers
    self.size = size
    self.sha256 = sha256
    self.cursor = cursor
  }

  /// The JSON object, keys in their documented order; the server fills every member.
  public var encoded: JSONObjectWriter {
    var object = JSONObjectWriter()
    object.add("name", name)
    if let device { object.add("device", device) }
    if let created { object.addRaw("created", String(created)) }
    if let covers { object.addRaw("covers", covers.json) }
    if let size { object.add("size", size) }
    if let sha256 { object.add("sha256", sha256) }
    object.add("cursor", cursor)
    return object
  }

  /// Reads a description: `name` (a path name) and `cursor` (a cursor token) are required and
  /// checked, since the reader asks for that name next and keeps that cursor; the rest are read
  /// when present and well-formed.
  public init(parsing body: [UInt8]) throws(AnswerBodyError) {
    guard let json = try? JSONValue.parse(body), let name = json["name"]?.string,
      APIPath.isName(name), let cursor = json["cursor"]?.string, CursorToken.isValid(cursor)
    else { throw AnswerBodyError("snapshot description") }
    self.init(
      name: name, device: json["device"]?.string, created: json["created"]?.integer,
      covers: try? VersionVector(json: json["covers"]),
      size: json["size"]?.integer.flatMap { Int(exactly: $0) }, sha256: json["sha256"]?.string,
      cursor: cursor)
  }
}
