import LifelogCore

/// The body of `GET /v1/manifest` (docs/http-api.md): what a remote is, and who may write to it.
///
/// The server writes it with ``encoded``; the HTTP remote reads it with ``init(parsing:)``, so
/// both sides share one spelling of every key.
public struct ManifestBody: Equatable, Sendable {
  public var remoteID: String
  /// The batch format the remote holds (``BatchCodec/format``).
  public var format: Int
  /// The oldest lifelog that may write to the remote.
  public var minimumVersion: String
  /// The account the token belongs to; the server always says, a reader needs it not.
  public var user: String?
  /// Whether the remote's batches are sealed (a key envelope is stored).
  public var encrypted: Bool

  public init(
    remoteID: String, format: Int, minimumVersion: String, user: String? = nil,
    encrypted: Bool = false
  ) {
    self.remoteID = remoteID
    self.format = format
    self.minimumVersion = minimumVersion
    self.user = user
    self.encrypted = encrypted
  }

  /// The JSON object, keys in their documented order; `encrypted` only when true.
  public var encoded: JSONObjectWriter {
    var object = JSONObjectWriter()
    object.add("lifelog", "remote")
    object.add("format", format)
    object.add("remoteId", remoteID)
    object.add("minVersion", minimumVersion)
    if let user { object.add("user", user) }
    if encrypted { object.add("encrypted", true) }
    return object
  }

  /// Reads a manifest: `remoteId`, `format` and `minVersion` are required; a missing `encrypted`
  /// means plain.
  public init(parsing body: [UInt8]) throws(AnswerBodyError) {
    guard let json = try? JSONValue.parse(body), let id = json["remoteId"]?.string,
      let format = json["format"]?.integer, let minimum = json["minVersion"]?.string,
      let width = Int(exactly: format)
    else { throw AnswerBodyError("manifest") }
    self.init(
      remoteID: id, format: width, minimumVersion: minimum, user: json["user"]?.string,
      encrypted: json["encrypted"]?.bool ?? false)
  }
}
