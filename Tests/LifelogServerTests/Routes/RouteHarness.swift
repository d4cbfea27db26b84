import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// A ``SyncServer`` on a real SQLite store in a temporary folder (or a new PostgreSQL database
/// with `LIFELOG_TEST_STORE=postgres`), spoken to in process: each request is an ``HTTPRequest``
/// value answered by ``SyncServer/respond(to:)``, as the listener would answer it, no socket.
final class RouteHarness: @unchecked Sendable {
  let folder = TemporaryDirectory(prefix: "lifelog-routes")
  let server: SyncServer
  private let lines = LogLines()

  init(
    maxBodyBytes: Int = HTTPListener.defaultMaxBodyBytes, requestsPerSecond: Double = 100,
    burst: Int = 200, maxConcurrentRequests: Int = 256, pageLimits: PageLimits = PageLimits(),
    connectionsPerAddress: Int = HTTPListener.defaultConnectionsPerAddress
  ) throws {
    var listener = HTTPListener.Configuration()
    listener.maxBodyBytes = maxBodyBytes
    listener.connectionsPerAddress = connectionsPerAddress
    // The same store as the end-to-end HTTP suites: PostgreSQL with LIFELOG_TEST_STORE=postgres.
    let store: ServerStoreLocation =
      PostgresCluster.selected
      ? .postgres(url: try PostgresCluster.shared().newDatabase()) : .folder(folder.path)
    let configuration = SyncServer.Configuration(
      listener: listener, store: store, requestsPerSecond: requestsPerSecond,
      burst: burst, maxConcurrentRequests: maxConcurrentRequests, pageLimits: pageLimits)
    server = try SyncServer(configuration, log: { [lines] in lines.append($0) })
  }

  /// The lines the server logged (its errors: requests are logged by the listener's call to
  /// ``SyncServer/answered(_:with:)``).
  var log: [String] { lines.all }

  /// Adds a user and returns their token.
  func addUser(_ name: String) throws -> String {
    let token = "llt_" + name + "-token"
    _ = try server.pool.withStore {
      try $0.addUser(name: name, tokenSHA256: SHA256.hexDigest(Array(token.utf8)))
    }
    return token
  }

  /// Pairs a device for the user of `token` (a pairing code, redeemed) and returns its token.
  func pairDevice(token: String, name: String) throws -> String {
    let pairing = send(
      "POST", "/v1/pairings", token: token, body: Array("{\"name\":\"\(name)\"}\n".utf8))
    let code = try #require(pairing.json["code"] as? String)
    let redeemed = send(
      "POST", "/v1/pairings/redeem", body: Array("{\"code\":\"\(code)\"}\n".utf8))
    return try #require(redeemed.json["token"] as? String)
  }

  /// Answers one request.
  ///
  /// `target` is a path with an optional query (`/v1/changes?limit=2`), split as the listener
  /// splits it (names and values are taken as written, not percent-decoded).
  func send(
    _ method: String, _ target: String, token: String? = nil, body: [UInt8] = [],
    headers: [(name: String, value: String)] = [], bodyTooLarge: Bool = false,
    activeRequests: Int = 1, at nanoseconds: UInt64 = 0, client: [UInt8] = []
  ) -> RouteAnswer {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let query: [(name: String, value: String?)] =
      parts.count < 2
      ? []
      : parts[1].split(separator: "&").map { argument in
        let pair = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(pair[0]), pair.count > 1 ? String(pair[1]) : nil)
      }
    var all = headers
    if let token { all.append(("Authorization", "Bearer " + token)) }
    let request = HTTPRequest(
      method: method, path: String(parts[0]), headers: all, queryArguments: query, body: body,
      bodyTooLarge: bodyTooLarge, activeRequests: activeRequests, startedNanoseconds: nanoseconds,
      clientKey: client)
    return RouteAnswer(server.respond(to: request))
  }
}

/// A response with what tests read of it.
struct RouteAnswer {
  let response: HTTPResponse

  init(_ response: HTTPResponse) { self.response = response }

  var status: Int { response.status }
  var body: [UInt8] { response.body }
  var text: String { String(decoding: response.body, as: UTF8.self) }

  /// A header, by name in any case.
  func header(_ name: String) -> String? {
    response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The body as a JSON object (empty when it is not one).
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
  }

  /// `error.code` of an error body.
  var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
  /// `error.message` of an error body.
  var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }

  /// Whether this is the JSON error the API answers: the status, the code, one line of JSON.
  func isError(
    _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let ok =
      self.status == status && errorCode == code && header("Content-Type") == "application/json"
      && text.hasSuffix("}\n") && errorMessage?.isEmpty == false
    if !ok { Issue.record("\(self.status) \(text)", sourceLocation: sourceLocation) }
    return ok
  }
}

/// Lines logged from any thread.
final class LogLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
}
