import LifelogTestSupport
import Testing

@testable import LifelogServer

/// What the server decides once a request's headers are in, before it reads a body.
///
/// Load, path and method, bearer token, rate, body size (docs/http-api.md, "Errors"); in
/// process.
@Suite struct AdmissionTests {
  let harness: RouteHarness
  let token: String

  init() throws {
    harness = try RouteHarness(maxConcurrentRequests: 4)
    token = try harness.addUser("alice")
  }

  @Test func aServerPastItsConcurrentRequestsAnswers503BeforeLookingAtThePath() {
    let busy = harness.send("GET", "/nowhere", activeRequests: 5)
    #expect(busy.isError(503, "overloaded"))
    #expect(busy.header("Retry-After") == "1")
    #expect(harness.send("GET", "/v1/info", activeRequests: 4).status == 200)
  }

  // `/` is the web app's page: WebAppRouteTests.
  @Test(arguments: [
    "/nowhere", "/v2/info", "/v1", "/v1/", "/v1/nothing", "/v1/batches/a/1/2", "v1/info",
  ])
  func anUnknownPathIs404(path: String) {
    #expect(harness.send("GET", path, token: token).isError(404, "not_found"))
  }

  @Test(arguments: [
    ("POST", "/v1/info", "GET, HEAD"), ("PUT", "/v1/manifest", "GET, HEAD"),
    ("DELETE", "/v1/keys", "GET, HEAD"), ("GET", "/v1/keys/1", "PUT"),
    ("POST", "/v1/changes", "GET, HEAD"), ("PUT", "/v1/batches/dev", "GET, HEAD, DELETE"),
    ("GET", "/v1/batches/dev/1", "PUT"), ("PUT", "/v1/snapshots/latest", "GET, HEAD"),
    ("DELETE", "/v1/snapshots/s-1", "GET, HEAD, PUT"),
  ])
  func aKnownPathWithAnotherMethodIs405WithAllow(method: String, path: String, allow: String) {
    let refused = harness.send(method, path, token: token)
    #expect(refused.isError(405, "method_not_allowed"))
    #expect(refused.header("Allow") == allow)
    #expect(refused.errorMessage == "This path takes \(allow)")
  }

  @Test func theRouteIsCheckedBeforeTheToken() {
    #expect(harness.send("GET", "/v1/batches/a.b").isError(400, "bad_request"))
    #expect(harness.send("POST", "/v1/changes").status == 405)
  }

  @Test func infoNeedsNoToken() {
    #expect(harness.send("GET", "/v1/info").status == 200)
    #expect(harness.send("GET", "/v1/info", token: "wrong").status == 200)
  }

  @Test(arguments: [
    [], [("Authorization", "Basic YWxpY2U6eA==")], [("Authorization", "Bearer")],
    [("Authorization", "Bearer ")], [("Authorization", "Bearer llt_unknown")],
    [("Authorization", "bearer")], [("Authorization", "")],
  ])
  func everyOtherRouteNeedsAValidBearerToken(headers: [(name: String, value: String)]) {
    for (method, path) in [
      ("GET", "/v1/manifest"), ("GET", "/v1/changes"), ("PUT", "/v1/batches/dev/1"),
      ("GET", "/v1/batches/dev"), ("DELETE", "/v1/batches/dev"), ("GET", "/v1/keys"),
      ("PUT", "/v1/keys/1"), ("GET", "/v1/snapshots/latest"), ("PUT", "/v1/snapshots/s-1"),
    ] {
      let refused = harness.send(method, path, body: [1], headers: headers)
      #expect(refused.isError(401, "unauthorized"), "\(method) \(path)")
      #expect(refused.header("WWW-Authenticate") == "Bearer realm=\"lifelog\"")
    }
  }

  @Test func theSchemeAndTheHeaderNameTakeAnyCaseAndTheFirstHeaderCounts() {
    let lower = [(name: "authorization", value: "bEaReR " + token)]
    #expect(harness.send("GET", "/v1/manifest", headers: lower).status == 200)
    let twice = [
      (name: "Authorization", value: "Bearer " + token), (name: "Authorization", value: "Bearer x"),
    ]
    #expect(harness.send("GET", "/v1/manifest", headers: twice).status == 200)
    #expect(
      harness.send("GET", "/v1/manifest", headers: Array(twice.reversed())).isError(
        401, "unauthorized"))
  }

  @Test func theMessagesSayWhatIsWrongWithTheToken() {
    #expect(
      harness.send("GET", "/v1/manifest").errorMessage
        == "This request needs 'Authorization: Bearer <token>'")
    #expect(
      harness.send("GET", "/v1/manifest", headers: [("Authorization", "Token x")]).errorMessage
        == "The Authorization header must be 'Bearer <token>'")
    #expect(
      harness.send("GET", "/v1/manifest", token: "nope").errorMessage
        == "The token is not valid; ask the server's admin for a new one "
        + "('lifelog serve user token')")
  }

  @Test func eachTokenHasABucketOfRequestsThatRefillsAtTheRate() throws {
    let limited = try RouteHarness(requestsPerSecond: 1, burst: 3)
    let alice = try limited.addUser("alice")
    let bob = try limited.addUser("bob")
    let second: UInt64 = 1_000_000_000
    let start = 100 * second
    let statuses = (0..<3).map { _ in limited.send("GET", "/v1/manifest", token: alice, at: start) }
    #expect(statuses.allSatisfy { $0.status == 200 })
    let refused = limited.send("GET", "/v1/manifest", token: alice, at: start)
    #expect(refused.isError(429, "rate_limited"))
    #expect(refused.header("Retry-After") == "1")
    #expect(refused.errorMessage == "Too many requests for this token; wait 1 s")
    #expect(limited.send("GET", "/v1/manifest", token: bob, at: start).status == 200)
    #expect(limited.send("GET", "/v1/info", at: start).status == 200)
    #expect(limited.send("GET", "/v1/manifest", token: alice, at: start + second).status == 200)
  }

  @Test func aBodyOverTheLimitIs413AtTheHeadersOnceTheTokenIsKnown() {
    let tooLarge = harness.send(
      "PUT", "/v1/batches/dev/1", token: token, bodyTooLarge: true)
    #expect(tooLarge.isError(413, "too_large"))
    #expect(
      tooLarge.errorMessage == "The body is larger than this server accepts (8388608 bytes)")
    #expect(
      harness.send("PUT", "/v1/batches/dev/1", bodyTooLarge: true).isError(401, "unauthorized"))
  }

  @Test func aBodyThatGrewPastTheLimitIs413WhenComplete() {
    let request = HTTPRequest(
      method: "PUT", path: "/v1/batches/dev/1", headers: [("Authorization", "Bearer " + token)],
      body: [1, 2, 3], bodyTooLarge: true)
    let answer = RouteAnswer(harness.server.handle(request, admitted: 1))
    #expect(answer.isError(413, "too_large"))
  }

  @Test func anAdmittedRequestCarriesItsUserToTheAnswer() throws {
    let bob = try harness.addUser("bob")
    let request = HTTPRequest(
      method: "GET", path: "/v1/manifest", headers: [("Authorization", "Bearer " + bob)])
    guard case .admitted(let user) = harness.server.admit(request) else {
      Issue.record("refused")
      return
    }
    let manifest = RouteAnswer(harness.server.handle(request, admitted: user))
    #expect(manifest.json["user"] as? String == "bob")
    guard
      case .admitted(let none) = harness.server.admit(
        HTTPRequest(method: "GET", path: "/v1/info"))
    else {
      Issue.record("info refused")
      return
    }
    #expect(none == 0)
  }

  /// A request without a token is refused on its headers when it would send a body: none at all
  /// to the web app, `/v1/info` or a share's content, at most 4096 declared bytes to redeem a
  /// pairing code, never a chunked one; so a client with no token can make the server hold
  /// neither `--max-body` bytes nor a slot of `--max-concurrent` while a body trickles in.
  @Test func aRequestWithoutATokenMayNotSendABodyBeyondAPairingCode() {
    func admitted(_ method: String, _ path: String, _ headers: [(String, String)]) -> Int? {
      let request = HTTPRequest(
        method: method, path: path, headers: headers.map { (name: $0.0, value: $0.1) })
      switch harness.server.admit(request) {
      case .admitted: return nil
      case .refused(let answer): return answer.status
      }
    }
    let huge = [("Content-Length", "8388608")]
    #expect(admitted("GET", "/", huge) == 413)
    #expect(admitted("GET", "/app.js", [("Transfer-Encoding", "chunked")]) == 413)
    #expect(admitted("GET", "/v1/info", huge) == 413)
    #expect(admitted("GET", "/v1/shares/abc/content", [("Content-Length", "1")]) == 413)
    #expect(admitted("POST", "/v1/pairings/redeem", huge) == 413)
    #expect(admitted("POST", "/v1/pairings/redeem", [("Content-Length", "-1")]) == 413)
    #expect(admitted("POST", "/v1/pairings/redeem", [("Transfer-Encoding", "chunked")]) == 411)
    #expect(admitted("POST", "/v1/pairings/redeem", [("Content-Length", "4096")]) == nil)
    #expect(admitted("GET", "/", [("Content-Length", "0")]) == nil)
  }
}
