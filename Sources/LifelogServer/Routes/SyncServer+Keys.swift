import LifelogCore
import LifelogProtocol

/// `GET /v1/keys` and `PUT /v1/keys/{version}`: the key envelopes of an encrypted remote
/// (docs/http-api.md).
extension SyncServer {
  /// The largest key envelope accepted: a wrapped key and its parameters take well under 1 KiB.
  static let maximumKeyEnvelopeBytes = 64 * 1024

  func keys(user: Int64) throws -> HTTPResponse {
    guard let envelope = try pool.withStore({ try $0.latestKeyEnvelope(user: user) }) else {
      throw HTTPError(
        404, APIErrorCode.noKeys, "This remote holds no key envelope: it is not encrypted")
    }
    return HTTPResponse(
      status: 200,
      headers: [
        (APIHeader.contentType, ContentType.keyEnvelope),
        (APIHeader.keyVersion, String(envelope.version)),
      ], body: envelope.bytes)
  }

  func putKeys(version: Int64, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    let bytes = request.body
    guard !bytes.isEmpty else {
      throw HTTPError.badRequest("The body is empty; send the key envelope's bytes")
    }
    guard bytes.count <= SyncServer.maximumKeyEnvelopeBytes else {
      throw HTTPError(
        413, APIErrorCode.tooLarge,
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
