import LifelogCore
import LifelogProtocol

/// `GET /v1/info` and `GET /v1/manifest` (docs/http-api.md).
extension SyncServer {
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
    guard let found else {
      throw HTTPError(401, APIErrorCode.unauthorized, "The token's user was removed")
    }
    let body = ManifestBody(
      remoteID: found.remoteID, format: BatchCodec.format,
      minimumVersion: LifelogVersion.minimumWriter(encrypted: encrypted), user: found.name,
      encrypted: encrypted)
    return .json(200, body.encoded)
  }
}
