import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// `GET /v1/info` and `GET /v1/manifest`, in process.
@Suite struct InfoRouteTests {
  let harness: RouteHarness
  let token: String

  init() throws {
    harness = try RouteHarness(
      maxBodyBytes: 1 << 20, requestsPerSecond: 2.5, burst: 7, maxConcurrentRequests: 9,
      pageLimits: PageLimits(batches: 10, rows: 20, bytes: 30))
    token = try harness.addUser("alice")
  }

  @Test func infoTellsTheVersionsAndTheLimitsInOneLineOfJSON() {
    let info = harness.send("GET", "/v1/info")
    #expect(info.status == 200)
    #expect(info.response.headers.map(\.name) == ["Content-Type", "X-Content-Type-Options"])
    #expect(info.header("Content-Type") == "application/json")
    #expect(
      info.text
        == "{\"lifelog\":\"server\",\"version\":\"\(LifelogVersion.current)\",\"api\":1,"
        + "\"format\":1,\"limits\":{\"maxBodyBytes\":1048576,\"maxPageBatches\":10,"
        + "\"maxPageRows\":20,\"maxPageBytes\":30,\"requestsPerSecond\":2.5,\"burst\":7,"
        + "\"maxConcurrentRequests\":9}}\n")
    #expect(harness.send("HEAD", "/v1/info").text == info.text)
  }

  /// Every JSON answer, an error (which may echo a path) too, is marked so no browser sniffs it
  /// as a page or a script.
  @Test func jsonAnswersAndErrorsAreNeverSniffed() {
    for answer in [
      harness.send("GET", "/v1/info"), harness.send("GET", "/v1/manifest", token: token),
      harness.send("GET", "/v1/<script>"), harness.send("GET", "/v1/manifest"),
    ] {
      #expect(answer.header("Content-Type") == "application/json")
      #expect(answer.header("X-Content-Type-Options") == "nosniff", "\(answer.status)")
    }
  }

  @Test func theManifestNamesTheRemoteAndItsUser() throws {
    let manifest = harness.send("GET", "/v1/manifest", token: token)
    #expect(manifest.status == 200)
    #expect(manifest.header("Content-Type") == "application/json")
    let remoteID = try #require(manifest.json["remoteId"] as? String)
    #expect(
      manifest.text
        == "{\"lifelog\":\"remote\",\"format\":1,\"remoteId\":\"\(remoteID)\","
        + "\"minVersion\":\"\(LifelogVersion.minimumWriter(encrypted: false))\","
        + "\"user\":\"alice\"}\n")
    let bob = try harness.addUser("bob")
    let other = harness.send("GET", "/v1/manifest", token: bob)
    #expect(other.json["user"] as? String == "bob")
    #expect(other.json["remoteId"] as? String != remoteID, "each user is a remote of their own")
    #expect(harness.send("GET", "/v1/manifest", token: token).text == manifest.text)
  }

  @Test func anEncryptedRemotesManifestSaysSoAndAsksForANewerWriter() {
    #expect(harness.send("PUT", "/v1/keys/1", token: token, body: [1, 2, 3]).status == 201)
    let manifest = harness.send("GET", "/v1/manifest", token: token)
    #expect(manifest.json["encrypted"] as? Bool == true)
    #expect(
      manifest.json["minVersion"] as? String == LifelogVersion.minimumWriter(encrypted: true))
    #expect(manifest.text.hasSuffix(",\"encrypted\":true}\n"))
  }

  @Test func aRemovedUsersTokenStopsAtOnce() throws {
    #expect(harness.send("GET", "/v1/manifest", token: token).status == 200)
    _ = try harness.server.pool.withStore { try $0.removeUser(name: "alice") }
    #expect(harness.send("GET", "/v1/manifest", token: token).isError(401, "unauthorized"))
  }
}
