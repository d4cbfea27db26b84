import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// Pairing and devices: a one-time code traded once for a device token that syncs like the
/// account's own, is listed, and stops at once when revoked; in process, on SQLite or PostgreSQL.
@Suite struct DeviceRouteTests {
  let harness: RouteHarness
  let token: String

  init() throws {
    harness = try RouteHarness()
    token = try harness.addUser("alice")
  }

  func json(_ object: String) -> [UInt8] { Array((object + "\n").utf8) }

  func pair(_ name: String, token: String? = nil) -> RouteAnswer {
    harness.send(
      "POST", "/v1/pairings", token: token ?? self.token, body: json("{\"name\":\"\(name)\"}"))
  }

  func redeem(_ code: String) -> RouteAnswer {
    harness.send("POST", "/v1/pairings/redeem", body: json("{\"code\":\"\(code)\"}"))
  }

  @Test func aCodeIsTradedOnceForATokenThatSyncsAsTheUser() throws {
    let pairing = pair("phone")
    #expect(pairing.status == 201)
    let code = try #require(pairing.json["code"] as? String)
    #expect(code.hasPrefix("llp_") && code.count == 68)
    #expect(pairing.json["device"] as? String == "phone")
    let expires = (pairing.json["expires"] as? Int64) ?? Int64(pairing.json["expires"] as? Int ?? 0)
    let now = LogStore.systemMilliseconds()
    #expect(expires > now + 9 * 60_000 && expires <= now + 10 * 60_000)

    let redeemed = redeem(code)
    #expect(redeemed.status == 201)
    let device = try #require(redeemed.json["token"] as? String)
    #expect(device.hasPrefix("lld_"))
    #expect(redeemed.json["user"] as? String == "alice")
    #expect(redeem(code).isError(404, "not_found"))

    let batch = SampleBatches.batch(device: "web", seq: 1)
    #expect(harness.send("PUT", "/v1/batches/web/1", token: device, body: batch).status == 201)
    let page = harness.send("GET", "/v1/changes?after=", token: token)
    #expect(page.status == 200)
    #expect(page.text.contains("\"device\":\"web\""))
    #expect(harness.send("GET", "/v1/manifest", token: device).json["user"] as? String == "alice")
  }

  /// Two links made for one name: once the device paired by the first is revoked, the second no
  /// longer pairs it again.
  @Test func revokingADeviceEndsTheCodesStillPendingForItsName() throws {
    let first = try #require(pair("phone").json["code"] as? String)
    let second = try #require(pair("phone").json["code"] as? String)
    #expect(redeem(first).status == 201)
    #expect(harness.send("DELETE", "/v1/devices/phone", token: token).status == 200)
    #expect(redeem(second).isError(404, "not_found"))
    #expect(harness.send("GET", "/v1/devices", token: token).text == "{\"devices\":[]}\n")
  }

  @Test func devicesAreListedAndARevokedOneIsRefusedAtOnce() throws {
    let code = try #require(pair("phone").json["code"] as? String)
    let device = try #require(redeem(code).json["token"] as? String)
    #expect(harness.send("GET", "/v1/manifest", token: device).status == 200)
    let list = harness.send("GET", "/v1/devices", token: token)
    #expect(list.status == 200)
    let devices = list.json["devices"] as? [[String: Any]] ?? []
    #expect(devices.map { $0["name"] as? String } == ["phone"])
    #expect(devices.first?["lastUsed"] != nil)

    let revoked = harness.send("DELETE", "/v1/devices/phone", token: token)
    #expect(revoked.text == "{\"device\":\"phone\",\"status\":\"revoked\"}\n")
    #expect(harness.send("GET", "/v1/manifest", token: device).isError(401, "unauthorized"))
    #expect(harness.send("DELETE", "/v1/devices/phone", token: token).isError(404, "not_found"))
    #expect(
      harness.send("GET", "/v1/devices", token: token).text == "{\"devices\":[]}\n")
  }

  @Test func onlyTheAccountsOwnTokenManagesDevices() throws {
    let code = try #require(pair("phone").json["code"] as? String)
    let device = try #require(redeem(code).json["token"] as? String)
    #expect(pair("tablet", token: device).isError(403, "forbidden"))
    #expect(harness.send("GET", "/v1/devices", token: device).isError(403, "forbidden"))
    #expect(harness.send("DELETE", "/v1/devices/phone", token: device).isError(403, "forbidden"))
    #expect(pair("tablet", token: "llt_nobody").isError(401, "unauthorized"))
  }

  @Test func anExpiredCodeIsRefusedAndForgotten() throws {
    let user = try #require(try harness.server.pool.withStore { try $0.user(named: "alice") })
    let code = "llp_expired"
    let added = try harness.server.pool.withStore {
      try $0.addPairing(
        user: user.id, name: "late", codeSHA256: SHA256.hexDigest(Array(code.utf8)),
        expires: LogStore.systemMilliseconds() - 1)
    }
    #expect(added)
    #expect(redeem(code).isError(404, "not_found"))
    #expect(harness.send("GET", "/v1/devices", token: token).text == "{\"devices\":[]}\n")
  }

  @Test func aNameIsPairedOnceAndMalformedRequestsAreRefused() throws {
    let code = try #require(pair("phone").json["code"] as? String)
    let second = try #require(pair("phone").json["code"] as? String)
    #expect(redeem(code).status == 201)
    #expect(redeem(second).isError(409, "conflict"))
    #expect(pair("phone").isError(409, "conflict"))
    for name in ["", "a b", "a_b", String(repeating: "x", count: 65)] {
      #expect(pair(name).isError(400, "bad_request"), "\(name)")
    }
    #expect(
      harness.send("POST", "/v1/pairings", token: token, body: Array("not json".utf8))
        .isError(400, "bad_request"))
    #expect(redeem("").isError(400, "bad_request"))
    #expect(harness.send("GET", "/v1/pairings", token: token).isError(405, "method_not_allowed"))
    #expect(harness.send("DELETE", "/v1/devices/a_b", token: token).isError(400, "bad_request"))
  }

  @Test func removingTheUserRemovesTheirDevices() throws {
    let code = try #require(pair("phone").json["code"] as? String)
    let device = try #require(redeem(code).json["token"] as? String)
    try harness.server.pool.withStore { _ = try $0.removeUser(name: "alice") }
    _ = try harness.addUser("alice")
    #expect(harness.send("GET", "/v1/manifest", token: device).isError(401, "unauthorized"))
    #expect(harness.send("GET", "/v1/devices", token: token).text == "{\"devices\":[]}\n")
  }
}
