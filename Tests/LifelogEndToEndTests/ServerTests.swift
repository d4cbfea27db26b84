import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

/// `lifelog serve` as a process on 127.0.0.1, spoken to over real HTTP (docs/http-api.md).
@Suite struct ServerTests {
  let folder = TemporaryDirectory(prefix: "lifelog-serve")
  let server: ServerProcess
  let alice: HTTPTestClient
  let device = UUIDText.random()

  init() throws {
    server = try ServerProcess(dataFolder: folder.file("data"))
    alice = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("alice"))
  }

  @Test func infoNeedsNoTokenAndTellsTheLimits() throws {
    let info = try HTTPTestClient(baseURL: server.baseURL).get("/v1/info")
    #expect(info.status == 200)
    #expect(info.json["lifelog"] as? String == "server")
    #expect((info.json["limits"] as? [String: Any])?["maxBodyBytes"] as? Int == 8 << 20)
  }

  @Test func everythingElseNeedsAValidToken() throws {
    let anonymous = HTTPTestClient(baseURL: server.baseURL)
    let missing = try anonymous.get("/v1/changes")
    #expect(missing.status == 401)
    #expect(missing.errorCode == "unauthorized")
    #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
    let wrong = HTTPTestClient(
      baseURL: server.baseURL, token: "llt_" + String(repeating: "0", count: 64))
    #expect(
      try wrong.put("/v1/batches/\(device)/1", SampleBatches.batch(device: device, seq: 1)).status
        == 401)
    #expect(try wrong.get("/v1/manifest").status == 401)
    #expect(
      try HTTPTestClient(baseURL: server.baseURL, token: "").get("/v1/manifest").status == 401)
    let basic = try anonymous.request(
      "GET", "/v1/manifest", headers: ["Authorization": "Basic YWxpY2U6eA=="])
    #expect(basic.status == 401)
  }

  @Test func aBatchIsCreatedOnceThenAcknowledgedAndNeverOverwritten() throws {
    let bytes = SampleBatches.batch(device: device, seq: 1)
    let created = try alice.put("/v1/batches/\(device)/1", bytes)
    #expect(created.status == 201, "\(created.text)")
    #expect(created.json["status"] as? String == "created")
    let cursor = try #require(created.json["cursor"] as? Int)
    let again = try alice.put("/v1/batches/\(device)/1", bytes)
    #expect(again.status == 200)
    #expect(again.json["cursor"] as? Int == cursor)
    let different = try alice.put(
      "/v1/batches/\(device)/1", SampleBatches.batch(device: device, seq: 1, note: "other"))
    #expect(different.status == 409)
    #expect(different.errorCode == "conflict")
    let count = try alice.get("/v1/batches/\(device)")
    #expect(count.json["batches"] as? Int == 1)
    #expect(count.json["highestSeq"] as? Int == 1)
  }

  @Test func damagedOrMisnamedBatchesAreRefused() throws {
    var damaged = SampleBatches.batch(device: device, seq: 1)
    damaged[damaged.count / 2] ^= 0x01
    let refused = try alice.put("/v1/batches/\(device)/1", damaged)
    #expect(refused.status == 400)
    #expect(refused.errorCode == "bad_batch")
    let truncated = try alice.put(
      "/v1/batches/\(device)/1", Array(SampleBatches.batch(device: device, seq: 1).dropLast(9)))
    #expect(truncated.status == 400)
    let misnamed = try alice.put(
      "/v1/batches/\(device)/2", SampleBatches.batch(device: device, seq: 1))
    #expect(misnamed.status == 400)
    #expect(misnamed.errorCode == "name_mismatch")
    #expect(try alice.put("/v1/batches/\(device)/1", []).status == 400)
    let snapshot = SampleBatches.snapshot(device: device, covers: [device: 1])
    #expect(try alice.put("/v1/batches/\(device)/1", snapshot).status == 400)
    #expect(try alice.get("/v1/batches/\(device)").json["batches"] as? Int == 0)
  }

  @Test func aBodyOverTheLimitIs413AndTheServerGoesOn() throws {
    let huge = [UInt8](repeating: 0x61, count: (8 << 20) + 1)
    // The server refuses at the headers and closes without reading the body (so a slow upload
    // cannot hold it): a client that sends all 8 MiB first may meet a broken pipe before it reads
    // the answer, as this test once did. `Expect: 100-continue` is how an HTTP client learns of
    // the refusal before it sends the body, which curl (under URLSession) does when asked.
    let refused = try alice.request(
      "PUT", "/v1/batches/\(device)/1", body: huge, headers: ["Expect": "100-continue"])
    #expect(refused.status == 413)
    #expect(refused.errorCode == "too_large")
    #expect(try alice.get("/v1/info").status == 200)
  }

  @Test func pathTraversalAndMalformedNamesAreRefusedAndTheServerGoesOn() throws {
    let bytes = SampleBatches.batch(device: device, seq: 1)
    for path in [
      "/v1/batches/..%2F..%2Fetc/1", "/v1/batches/%2e%2e/1", "/v1/batches/a.b/1",
      "/v1/batches/a%00b/1",
      "/v1/snapshots/..%2Fserver", "/v1/snapshots/a%20b", "/v1/batches/\(device)/0",
      "/v1/batches/\(device)/-1",
    ] {
      let response = try alice.put(path, bytes)
      #expect((400...405).contains(response.status), "\(path): \(response.status) \(response.text)")
      #expect(response.errorCode != nil, "\(path)")
    }
    #expect(try alice.get("/v1/../v1/info").status != 500)
    #expect(try alice.get("/v1/changes?after=../../x").status == 400)
    #expect(try alice.get("/v1/changes?exclude=../x").status == 400)
    #expect(try alice.get("/v1/changes?limit=-3").status == 400)
    #expect(try alice.get("/v1/changes?limit=0").status == 400)
    #expect(try alice.get("/v1/changes?limit=+5").status == 400)
    // "At most this many": a number past every limit asks for the most there is.
    #expect(
      try alice.get("/v1/changes?limit=99999999999999999999999&rows=74607916342650779729").status
        == 200)
    #expect(try alice.get("/v1/snapshots/latest?meta=2").status == 400)
    #expect(try alice.request("POST", "/v1/changes").status == 405)
    #expect(try alice.put("/v1/batches/\(device)/1", bytes).status == 201)
  }

  @Test func oneUserNeverSeesAnothersData() throws {
    let bob = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("bob"))
    #expect(
      try alice.put("/v1/batches/\(device)/1", SampleBatches.batch(device: device, seq: 1)).status
        == 201)
    let snapshot = SampleBatches.snapshot(device: device, covers: [device: 1])
    #expect(try alice.put("/v1/snapshots/100-\(device)", snapshot).status == 201)

    let changes = try ChangesBody(try bob.get("/v1/changes"))
    #expect(changes.batches.isEmpty)
    #expect(try bob.get("/v1/batches/\(device)").json["batches"] as? Int == 0)
    #expect(try bob.get("/v1/snapshots/latest").status == 404)
    #expect(try bob.get("/v1/snapshots/100-\(device)").status == 404)
    #expect(try bob.request("DELETE", "/v1/batches/\(device)?through=1").status == 409)
    // Bob's batch under the same name is his own, not a conflict with Alice's.
    #expect(
      try bob.put(
        "/v1/batches/\(device)/1", SampleBatches.batch(device: device, seq: 1, note: "bob")
      ).status == 201)
    #expect(try alice.get("/v1/batches/\(device)").json["batches"] as? Int == 1)
    #expect(
      try bob.get("/v1/manifest").json["remoteId"] as? String != alice.get("/v1/manifest").json[
        "remoteId"] as? String)
    let aliceChanges = try ChangesBody(
      try HTTPTestClient(baseURL: server.baseURL, token: alice.token).get("/v1/changes"))
    #expect(aliceChanges.batches.map(\.bytes) == [SampleBatches.batch(device: device, seq: 1)])
  }

  /// Cursors count each user's own batches: Bob's pushes never show in Alice's cursors (they
  /// would tell her how much he pushes, and when).
  @Test func aUsersCursorDoesNotMoveWhenAnotherUserPushes() throws {
    let bob = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("bob"))
    let first = try alice.put(
      "/v1/batches/\(device)/1", SampleBatches.batch(device: device, seq: 1))
    let cursor = try #require(first.json["cursor"] as? Int)
    for seq in 1...3 {
      #expect(
        try bob.put("/v1/batches/\(device)/\(seq)", SampleBatches.batch(device: device, seq: seq))
          .status == 201)
    }
    let second = try alice.put(
      "/v1/batches/\(device)/2", SampleBatches.batch(device: device, seq: 2))
    #expect(second.json["cursor"] as? Int == cursor + 1)
  }

  /// A snapshot's device is served back as a header and matched against `exclude`: one that is
  /// not a device id is refused like a path's.
  @Test func aSnapshotWhoseDeviceIsNotADeviceIdIsRefused() throws {
    for bad in ["a_b", "a b", "", String(repeating: "d", count: 129)] {
      let snapshot = SampleBatches.snapshot(device: bad, covers: [device: 1])
      let refused = try alice.put("/v1/snapshots/100-x", snapshot)
      #expect(refused.status == 400, "\(bad): \(refused.status) \(refused.text)")
      #expect(refused.errorCode == "bad_batch")
    }
    #expect(try alice.get("/v1/snapshots/latest").status == 404)
  }
}
