import LifelogProtocol

/// The API's paths (docs/http-api.md), matched segment by segment.
///
/// Names in paths are checked here, before anything else looks at them: only `[A-Za-z0-9-]`, so `..`, `/` or `%2F` can never
/// reach the store.
public enum Route: Equatable, Sendable {
  /// `GET /v1/info`: no token needed.
  case info
  /// `GET /v1/manifest`
  case manifest
  /// `PUT /v1/batches/{device}/{seq}`
  case putBatch(device: String, seq: Int)
  /// `GET /v1/batches/{device}`
  case batchCount(device: String)
  /// `DELETE /v1/batches/{device}?through={seq}`
  case deleteBatches(device: String)
  /// `GET /v1/changes`
  case changes
  /// `PUT /v1/snapshots/{name}`
  case putSnapshot(name: String)
  /// `GET`/`HEAD /v1/snapshots/latest`
  case latestSnapshot
  /// `GET`/`HEAD /v1/snapshots/{name}`
  case snapshot(name: String)
  /// `GET`/`HEAD /v1/keys`: the newest key envelope of an encrypted remote
  case keys
  /// `PUT /v1/keys/{version}`
  case putKeys(version: Int64)
  /// `POST /v1/pairings`: a one-time code for a new device
  case createPairing
  /// `POST /v1/pairings/redeem`: the code for a device token; no token needed
  case redeemPairing
  /// `GET /v1/devices`
  case devices
  /// `DELETE /v1/devices/{name}`
  case revokeDevice(name: String)
  /// `GET /v1/shares`
  case shares
  /// `PUT /v1/shares/{id}`: a sealed report
  case putShare(id: String)
  /// `DELETE /v1/shares/{id}`
  case revokeShare(id: String)
  /// `GET /v1/shares/{id}/content`: the ciphertext, for a viewer; no token needed
  case shareContent(id: String)
  /// `GET`/`HEAD` of a file of the web app (``WebApp``), outside `/v1`; no token needed
  case webFile(path: String)

  /// Whether the route needs a bearer token.
  public var needsToken: Bool {
    switch self {
    case .info, .redeemPairing, .webFile, .shareContent: false
    default: true
    }
  }

  /// Whether the route is answered without a token but reads or writes the store for it (a
  /// pairing code, a share): limited per client address instead.
  public var isLimitedPerAddress: Bool {
    switch self {
    case .redeemPairing, .shareContent: true
    default: false
    }
  }

  /// Whether the request carries a body that the route reads.
  public var takesBody: Bool {
    switch self {
    case .putBatch, .putSnapshot, .putKeys, .createPairing, .redeemPairing, .putShare: true
    default: false
    }
  }
}

public enum Router {
  /// The longest device id or snapshot name accepted.
  public static let maximumNameLength = APIPath.maximumNameLength

  /// The route for a method and a path.
  ///
  /// - Throws: ``HTTPError`` 404 for an unknown path, 405 for a known path with another method,
  ///   400 for a malformed device, name or seq.
  public static func route(method: String, path: String) throws(HTTPError) -> Route {
    // A pull, what every client asks most often, matched whole before the path is split.
    if path == APIPath.changes, method == "GET" || method == "HEAD" { return .changes }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    guard path.hasPrefix("/"), parts.first.map({ "/" + $0 }) == APIPath.prefix else {
      if let file = WebApp.servedPath(path) {
        guard method == "GET" || method == "HEAD" else { throw notAllowed("GET, HEAD") }
        return .webFile(path: file)
      }
      throw .notFound("No such path '\(path)'; the API is under \(APIPath.prefix)")
    }
    let rest = Array(parts.dropFirst())
    let read = method == "GET" || method == "HEAD"
    switch rest.count {
    case 1 where rest[0] == APIPath.Segment.info:
      guard read else { throw notAllowed("GET, HEAD") }
      return .info
    case 1 where rest[0] == APIPath.Segment.manifest:
      guard read else { throw notAllowed("GET, HEAD") }
      return .manifest
    case 1 where rest[0] == APIPath.Segment.keys:
      guard read else { throw notAllowed("GET, HEAD") }
      return .keys
    case 2 where rest[0] == APIPath.Segment.keys:
      let version = try Router.seq(rest[1], what: "key envelope version", in: .keyVersion)
      guard method == "PUT" else { throw notAllowed("PUT") }
      return .putKeys(version: Int64(version))
    case 1 where rest[0] == APIPath.Segment.changes:
      guard read else { throw notAllowed("GET, HEAD") }
      return .changes
    case 2 where rest[0] == APIPath.Segment.batches:
      let device = try name(rest[1], what: "device id")
      if read { return .batchCount(device: device) }
      guard method == "DELETE" else { throw notAllowed("GET, HEAD, DELETE") }
      return .deleteBatches(device: device)
    case 3 where rest[0] == APIPath.Segment.batches:
      let device = try name(rest[1], what: "device id")
      let seq = try Router.seq(rest[2])
      guard method == "PUT" else { throw notAllowed("PUT") }
      return .putBatch(device: device, seq: seq)
    case 2 where rest[0] == APIPath.Segment.snapshots:
      if rest[1] == APIPath.Segment.latest {
        guard read else { throw notAllowed("GET, HEAD") }
        return .latestSnapshot
      }
      let name = try name(rest[1], what: "snapshot name")
      if read { return .snapshot(name: name) }
      guard method == "PUT" else { throw notAllowed("GET, HEAD, PUT") }
      return .putSnapshot(name: name)
    default:
      if let route = try deviceRoute(rest, method: method) { return route }
      throw .notFound("No such path '\(path)'")
    }
  }

  /// Whether `text` is a valid device id or snapshot name: 1–128 of `[A-Za-z0-9-]`
  /// (``APIPath/isName(_:)``, the rule the client checks too).
  public static func isName(_ text: some StringProtocol) -> Bool { APIPath.isName(text) }

  static func name(_ text: Substring, what: String) throws(HTTPError) -> String {
    guard isName(text) else {
      throw .badRequest(
        "A \(what) may hold only letters, digits and '-' (at most \(maximumNameLength))")
    }
    return String(text)
  }

  /// A batch number (or key envelope version): decimal, without leading zeros or signs, in its
  /// ``WireRange`` — the range every client checks, so nothing stored is one a client refuses.
  static func seq(
    _ text: Substring, what: String = "batch seq", in range: WireRange = .seq
  ) throws(HTTPError) -> Int {
    guard let seq = range.parse(decimal: text) else {
      throw .badRequest("A \(what) is a whole number from \(range), without leading zeros")
    }
    return seq
  }

  static func notAllowed(_ allow: String) -> HTTPError {
    HTTPError(405, APIErrorCode.methodNotAllowed, "This path takes \(allow)", allow: allow)
  }
}
