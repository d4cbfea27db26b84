@preconcurrency import Glibc
import LifelogCore
import LifelogProtocol
import LifelogSQLite

/// `lifelog serve`: the sync protocol of docs/sync-protocol.md behind HTTP (docs/http-api.md).
///
/// Handles requests on libmicrohttpd's threads: admits each one when its headers arrive (route,
/// bearer token, rate and concurrency limits, body size), then answers it once its body is in.
/// Every user's data is reached only through the user its token names.
public final class SyncServer: HTTPHandling {
  public struct Configuration: Sendable {
    public var listener: HTTPListener.Configuration
    /// Where the users, batches and snapshots are kept.
    public var store: ServerStoreLocation
    /// Requests per second each token may make on average (0: no limit), and at once.
    public var requestsPerSecond: Double
    public var burst: Int
    /// Requests handled at once, past which the server answers 503.
    public var maxConcurrentRequests: Int
    public var pageLimits: PageLimits

    public init(
      listener: HTTPListener.Configuration = .init(), store: ServerStoreLocation,
      requestsPerSecond: Double = 100,
      burst: Int = 200, maxConcurrentRequests: Int = 256, pageLimits: PageLimits = PageLimits()
    ) {
      self.listener = listener
      self.store = store
      self.requestsPerSecond = requestsPerSecond
      self.burst = burst
      self.maxConcurrentRequests = maxConcurrentRequests
      self.pageLimits = pageLimits
    }
  }

  public let configuration: Configuration
  /// Group-commit rounds under way at once on a PostgreSQL store (docs/deploy.md).
  static let postgresCommitRounds = 4
  /// Requests a second (and at once) one client address may make to the token-free routes
  /// that reach the store: redeeming a pairing code, opening a share (docs/security.md).
  static let tokenFreeRequestsPerSecond = 1.0
  static let tokenFreeBurst = 20
  /// Wrong share passcodes one client address may send at once, then one a minute.
  static let wrongPasscodeBurst = 5
  static let wrongPasscodesPerSecond = 1.0 / 60
  let pool: StorePool
  let committer: BatchCommitter
  let limiter: RateLimiter<Int64>
  /// The token-free routes that reach the store, per client address (off with
  /// `--max-connections-per-address 0`: behind a proxy every client has the proxy's address).
  let addressLimiter: RateLimiter<[UInt8]>
  /// Wrong share passcodes per client address: a few at once, then one a minute.
  let passcodeLimiter: RateLimiter<[UInt8]>
  /// The client addresses with a share passcode being checked: one check at a time each.
  let passcodeChecks = InFlightKeys<[UInt8]>()
  /// Writes one line of the request log.
  let log: @Sendable (String) -> Void

  /// Opens (creating when missing) the store; does not listen yet (``listen()``).
  public init(_ configuration: Configuration, log: @escaping @Sendable (String) -> Void) throws {
    self.configuration = configuration
    pool = try StorePool(location: configuration.store)
    if case .postgres = configuration.store {
      committer = BatchCommitter(pool: pool, rounds: SyncServer.postgresCommitRounds)
    } else {
      committer = BatchCommitter(pool: pool)
    }
    limiter = RateLimiter(rate: configuration.requestsPerSecond, burst: configuration.burst)
    let perAddress = configuration.listener.connectionsPerAddress > 0
    addressLimiter = RateLimiter(
      rate: perAddress ? SyncServer.tokenFreeRequestsPerSecond : 0,
      burst: SyncServer.tokenFreeBurst)
    passcodeLimiter = RateLimiter(
      rate: perAddress ? SyncServer.wrongPasscodesPerSecond : 0,
      burst: SyncServer.wrongPasscodeBurst)
    self.log = log
    try wrapLegacySharePasscodes()
  }

  /// Turns each share passcode an older server kept as a bare SHA-256 into the slow form
  /// (``SharePasscode/wrap(legacy:salt:)``), so a copy of the store taken from now on holds none
  /// that can be tried quickly.
  func wrapLegacySharePasscodes() throws {
    let legacy = try pool.withStore { try $0.legacySharePasscodes() }
    for (id, stored) in legacy {
      let wrapped = SharePasscode.wrap(legacy: stored)
      try pool.withStore { try $0.replaceSharePasscode(id: id, old: stored, new: wrapped) }
    }
  }

  /// Starts answering on the configured address.
  public func listen() throws(ListenerError) -> HTTPListener {
    ServerMemory.keepFreedMemoryForReuse()
    return try HTTPListener(configuration.listener, handler: self)
  }

  // MARK: - HTTPHandling

  public func admit(_ request: HTTPRequest) -> HTTPAdmission {
    do {
      let route = try admittedRoute(request)
      return .admitted(tag: try admittedUser(route, request, store: nil))
    } catch {
      return .refused(response(for: error))
    }
  }

  public func handle(_ request: HTTPRequest, admitted user: Int64) -> HTTPResponse {
    do {
      if request.bodyTooLarge { throw tooLarge }
      let route = try Router.route(method: request.method, path: request.path)
      return try answer(route, request: request, user: user)
    } catch {
      return response(for: error)
    }
  }

  /// The answer to a whole request: admitted, then answered, routed once.
  ///
  /// The listener's one step for a request without a body (for one with a body it admits on the
  /// headers, then answers with ``handle(_:admitted:)``); routes and admission are tested through
  /// this, in process. A pull (`GET /v1/changes`, what every client asks most often) checks its
  /// token and reads its page on one connection in one read of the store: one SQLite read
  /// transaction instead of two (docs/benchmarks.md, "Server CPU per request").
  public func respond(to request: HTTPRequest) -> HTTPResponse {
    do {
      let route = try admittedRoute(request)
      if route == .changes {
        // Admitted once, even when a broken PostgreSQL connection makes the pool run it again.
        var admitted: Int64?
        return try pool.withStore { store in
          try store.reading {
            let user = try admitted ?? admittedUser(route, request, store: store)
            admitted = user
            return try changes(request: request, user: user, store: store)
          }
        }
      }
      let user = try admittedUser(route, request, store: nil)
      return try answer(route, request: request, user: user)
    } catch {
      return response(for: error)
    }
  }

  /// The route of a request the server has room for: admission's first checks, in their order
  /// (load, then path and method).
  func admittedRoute(_ request: HTTPRequest) throws -> Route {
    if request.activeRequests > configuration.maxConcurrentRequests {
      throw HTTPError(
        503, APIErrorCode.overloaded, "The server is busy; try again shortly", retryAfter: 1)
    }
    return try Router.route(method: request.method, path: request.path)
  }

  /// The user a routed request acts for (0 on a route without a token).
  ///
  /// Admission's other checks, in their order (token, rate, body size). The token is looked up
  /// on `store`, or on a connection of the pool when nil.
  func admittedUser(
    _ route: Route, _ request: HTTPRequest, store: (any ServerStorage)?
  ) throws -> Int64 {
    var user: Int64 = 0
    if route.needsToken {
      user = try authenticate(request, store: store)
      if let wait = limiter.admit(user, now: request.startedNanoseconds) {
        throw HTTPError(
          429, APIErrorCode.rateLimited, "Too many requests for this token; wait \(wait) s",
          retryAfter: wait)
      }
    } else {
      if route.isLimitedPerAddress,
        let wait = addressLimiter.admit(request.clientKey, now: request.startedNanoseconds)
      {
        throw HTTPError(
          429, APIErrorCode.rateLimited, "Too many requests from this address; wait \(wait) s",
          retryAfter: wait)
      }
      try SyncServer.checkTokenFreeBody(route, request)
    }
    if request.bodyTooLarge { throw tooLarge }
    return user
  }

  /// The answer to each route, in Routes/ (one file per resource, docs/http-api.md).
  func answer(_ route: Route, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    switch route {
    case .info: return info()
    case .manifest: return try manifest(user: user)
    case .putBatch(let device, let seq):
      return try putBatch(device: device, seq: seq, request: request, user: user)
    case .batchCount(let device): return try batchCount(device: device, user: user)
    case .deleteBatches(let device):
      return try deleteBatches(device: device, request: request, user: user)
    case .changes:
      return try pool.withStore { try changes(request: request, user: user, store: $0) }
    case .putSnapshot(let name): return try putSnapshot(name: name, request: request, user: user)
    case .latestSnapshot: return try snapshot(named: nil, request: request, user: user)
    case .snapshot(let name): return try snapshot(named: name, request: request, user: user)
    case .keys: return try keys(user: user)
    case .putKeys(let version): return try putKeys(version: version, request: request, user: user)
    case .createPairing: return try createPairing(request: request, user: user)
    case .redeemPairing: return try redeemPairing(request: request)
    case .devices: return try devices(request: request, user: user)
    case .revokeDevice(let name): return try revokeDevice(name: name, request: request, user: user)
    case .shares: return try shares(request: request, user: user)
    case .putShare(let id): return try putShare(id: id, request: request, user: user)
    case .revokeShare(let id): return try revokeShare(id: id, request: request, user: user)
    case .shareContent(let id): return try shareContent(id: id, request: request)
    case .webFile(let path): return WebApp.response(for: path)
    }
  }

  public func answered(_ request: HTTPRequest, with response: HTTPResponse) {
    let elapsed = SystemClock.monotonicNanoseconds() &- request.startedNanoseconds
    let tenths = elapsed / 100_000
    let milliseconds = "\(tenths / 10).\(tenths % 10)"
    let method = SyncServer.printable(request.method, limit: 16)
    let path = SyncServer.printable(request.path, limit: 200)
    log("\(RequestLogTime.now()) \(method) \(path) \(response.status) \(milliseconds)ms")
  }

  /// Text from a request as the log may show it: control characters (a decoded `%0A` would start
  /// a forged log line), spaces and bytes outside ASCII as `%XX`, cut at `limit` bytes.
  static func printable(_ text: String, limit: Int) -> String {
    // Most paths and every method are plain already: no copy byte by byte.
    if text.utf8.count <= limit,
      text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x25 })
    {
      return text
    }
    var result = ""
    for byte in text.utf8.prefix(limit) {
      if byte <= 0x20 || byte >= 0x7F || byte == 0x25 {
        let hex = String(byte, radix: 16, uppercase: true)
        result += "%" + (hex.count == 1 ? "0" : "") + hex
      } else {
        result.unicodeScalars.append(Unicode.Scalar(byte))
      }
    }
    return text.utf8.count > limit ? result + "…" : result
  }

  /// Refuses, on its headers, a body that no token vouches for: only a pairing code's redemption
  /// takes one, of at most ``maximumPairingBody`` bytes declared by `Content-Length`.
  ///
  /// Every other body is read only after a valid token, so without this check a client with no
  /// token could make the server hold `--max-body` bytes per connection (`GET /` with an 8 MiB
  /// body), or a body trickling in for ever, in its slots of `--max-concurrent`.
  static func checkTokenFreeBody(_ route: Route, _ request: HTTPRequest) throws(HTTPError) {
    let limit = route == .redeemPairing ? maximumPairingBody : 0
    let declared = request.header("Content-Length")
    let chunked = request.header("Transfer-Encoding") != nil
    guard chunked || declared != nil else { return }
    if chunked, limit > 0 {
      throw HTTPError(
        411, APIErrorCode.badRequest, "This request must declare its length (Content-Length)")
    }
    let length = declared.flatMap { $0.utf8.count <= 18 ? Int($0) : nil }
    guard !chunked, let length, length >= 0, length <= limit else {
      throw HTTPError(
        413, APIErrorCode.tooLarge,
        limit == 0
          ? "This path takes no body" : "The body is larger than this path takes (\(limit) bytes)")
    }
  }

  var tooLarge: HTTPError {
    HTTPError(
      413, APIErrorCode.tooLarge,
      "The body is larger than this server accepts (\(configuration.listener.maxBodyBytes) bytes)")
  }

  // MARK: - Authentication

  /// The id of the user whose token the request carries, looked up on `store` (or on a
  /// connection of the pool when nil).
  func authenticate(_ request: HTTPRequest, store: (any ServerStorage)?) throws -> Int64 {
    guard let header = request.header(APIHeader.authorization) else {
      throw HTTPError(
        401, APIErrorCode.unauthorized, "This request needs 'Authorization: Bearer <token>'")
    }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == APIHeader.bearer.lowercased(),
      !parts[1].isEmpty
    else {
      throw HTTPError(
        401, APIErrorCode.unauthorized, "The Authorization header must be 'Bearer <token>'")
    }
    let hash = ServerDigest.hexDigest(ArraySlice(parts[1].utf8))
    let found =
      if let store {
        try store.user(tokenSHA256: hash)
      } else {
        try pool.withStore { try $0.user(tokenSHA256: hash) }
      }
    guard let user = try found ?? deviceUser(tokenSHA256: hash, store: store) else {
      throw HTTPError(
        401, APIErrorCode.unauthorized,
        "The token is not valid; ask the server's admin for a new one ('lifelog serve user token')")
    }
    return user.id
  }

  // MARK: - Errors

  static let storageFailed =
    "The server's storage failed (a full disk or an I/O error); nothing was stored, try again shortly"

  func response(for error: any Error) -> HTTPResponse {
    switch error {
    case let error as HTTPError:
      return .error(error)
    case let error as SQLiteError where error.isBusy:
      return .error(.unavailable("The server's database is busy; try again shortly"))
    case let error as PostgresError where error.isTransient:
      log("\(RequestLogTime.now()) database: \(error)")
      return .error(.unavailable("The server's database is busy; try again shortly"))
    // A full disk or an I/O error rolled the request back; the same request may pass once the
    // operator frees space or the disk recovers, so it is "try again", not a bug.
    case let error as SQLiteError where error.isDiskFull || error.isIOError:
      log("\(RequestLogTime.now()) storage: \(error)")
      return .error(.unavailable(SyncServer.storageFailed))
    case let error as PostgresError where error.isStorageFailure:
      log("\(RequestLogTime.now()) storage: \(error)")
      return .error(.unavailable(SyncServer.storageFailed))
    default:
      log("\(RequestLogTime.now()) error: \(error)")
      return .error(HTTPError(500, APIErrorCode.internal, "The server failed; its log says why"))
    }
  }
}

/// UTC timestamps for the request log, to the millisecond.
enum RequestLogTime {
  static func now() -> String {
    let (seconds, nanoseconds) = SystemClock.now()
    return TextBytes.string {
      $0.iso8601UTC(seconds: seconds, milliseconds: nanoseconds / 1_000_000)
    }
  }
}
