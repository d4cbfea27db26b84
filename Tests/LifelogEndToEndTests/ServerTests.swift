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

  @Test func changesComeInServerOrderWithoutTheReadersOwnDevice() throws {
    let other = UUIDText.random()
    for seq in 1...5 {
      #expect(
        try alice.put("/v1/batches/\(other)/\(seq)", SampleBatches.batch(device: other, seq: seq))
          .status == 201)
      #expect(
        try alice.put("/v1/batches/\(device)/\(seq)", SampleBatches.batch(device: device, seq: seq))
          .status == 201)
    }
    var cursor = ""
    var seqs: [Int] = []
    var pages = 0
    while true {
      let page = try ChangesBody(
        try alice.get("/v1/changes?after=\(cursor)&exclude=\(device)&limit=2"))
      pages += 1
      #expect(page.batches.allSatisfy { $0.device == other })
      #expect(page.batches.count <= 2)
      seqs += page.batches.map(\.seq)
      for batch in page.batches {
        #expect(batch.bytes == SampleBatches.batch(device: other, seq: batch.seq))
      }
      cursor = page.cursor
      if !page.more { break }
    }
    #expect(seqs == [1, 2, 3, 4, 5])
    #expect(pages == 3)
    let empty = try ChangesBody(try alice.get("/v1/changes?after=\(cursor)&exclude=\(device)"))
    #expect(empty.batches.isEmpty && !empty.more)
  }

  @Test func snapshotsAreStoredAndOfferedWithWhatTheyCover() throws {
    let writer = UUIDText.random()
    for seq in 1...3 {
      #expect(
        try alice.put("/v1/batches/\(writer)/\(seq)", SampleBatches.batch(device: writer, seq: seq))
          .status == 201)
    }
    let bytes = SampleBatches.snapshot(device: writer, covers: [writer: 3])
    #expect(try alice.put("/v1/snapshots/200-\(writer)", bytes).status == 201)
    #expect(try alice.put("/v1/snapshots/200-\(writer)", bytes).status == 200)
    #expect(
      try alice.put(
        "/v1/snapshots/200-\(writer)", SampleBatches.snapshot(device: writer, covers: [writer: 2])
      ).status == 409)

    let meta = try alice.get("/v1/snapshots/latest?after=&exclude=\(device)&meta=1")
    #expect(meta.status == 200)
    #expect(meta.json["name"] as? String == "200-\(writer)")
    #expect(meta.json["covers"] as? [String: Int] == [writer: 3])
    let cursor = try #require(meta.json["cursor"] as? String)
    let head = try alice.request("HEAD", "/v1/snapshots/latest?after=&exclude=\(device)")
    #expect(head.status == 200 && head.body.isEmpty)
    #expect(head.header("Lifelog-Snapshot-Covers") == "{\"\(writer)\":3}")
    let full = try alice.get("/v1/snapshots/latest?after=&exclude=\(device)")
    #expect(full.body == bytes)
    #expect(full.header("Lifelog-Cursor") == cursor)

    // Once merged, the snapshot's batches are skipped and it is not offered again.
    let page = try ChangesBody(try alice.get("/v1/changes?after=\(cursor)&exclude=\(device)"))
    #expect(page.batches.isEmpty)
    #expect(
      try alice.get("/v1/snapshots/latest?after=\(page.cursor)&exclude=\(device)").status == 404)
    // The writer itself is never offered its own snapshot.
    #expect(try alice.get("/v1/snapshots/latest?after=&exclude=\(writer)").status == 404)
  }

  @Test func compactedBatchesAreSkippedOnlyByReadersWhoMergedTheSnapshot() throws {
    let writer = UUIDText.random()
    for seq in 1...4 {
      #expect(
        try alice.put("/v1/batches/\(writer)/\(seq)", SampleBatches.batch(device: writer, seq: seq))
          .status == 201)
    }
    #expect(try alice.request("DELETE", "/v1/batches/\(writer)?through=3").status == 409)
    #expect(
      try alice.put(
        "/v1/snapshots/300-\(writer)", SampleBatches.snapshot(device: writer, covers: [writer: 3])
      ).status == 201)
    let deleted = try alice.request("DELETE", "/v1/batches/\(writer)?through=3")
    #expect(deleted.status == 200)
    #expect(deleted.json["deleted"] as? Int == 3)
    #expect(try alice.get("/v1/batches/\(writer)").json["batches"] as? Int == 1)
    // A compacted batch pushed again is still recognised.
    #expect(
      try alice.put("/v1/batches/\(writer)/2", SampleBatches.batch(device: writer, seq: 2)).status
        == 200)

    let blocked = try ChangesBody(try alice.get("/v1/changes?exclude=\(device)"))
    #expect(blocked.batches.isEmpty && blocked.needsSnapshot && !blocked.more)
    let snapshot = try alice.get(
      "/v1/snapshots/latest?after=\(blocked.cursor)&exclude=\(device)&meta=1")
    let cursor = try #require(snapshot.json["cursor"] as? String)
    let rest = try ChangesBody(try alice.get("/v1/changes?after=\(cursor)&exclude=\(device)"))
    #expect(rest.batches.map(\.seq) == [4])
    #expect(!rest.needsSnapshot)
  }

  @Test func theRateLimitAnswers429WithRetryAfter() throws {
    server.terminate()
    let limited = try ServerProcess(
      dataFolder: folder.file("data"), arguments: ["--rate-limit", "1", "--burst", "3"])
    let client = HTTPTestClient(baseURL: limited.baseURL, token: alice.token)
    let statuses = try (0..<6).map { _ in try client.get("/v1/manifest") }
    #expect(statuses.prefix(3).allSatisfy { $0.status == 200 })
    let refused = try #require(statuses.last)
    #expect(refused.status == 429)
    #expect(refused.errorCode == "rate_limited")
    #expect(Int(refused.header("Retry-After") ?? "") ?? 0 >= 1)
    // Another user has a bucket of their own; /v1/info is not limited.
    let bob = HTTPTestClient(baseURL: limited.baseURL, token: try limited.addUser("bob"))
    #expect(try bob.get("/v1/manifest").status == 200)
    #expect(try HTTPTestClient(baseURL: limited.baseURL).get("/v1/info").status == 200)
    sleep(2)
    #expect(try client.get("/v1/manifest").status == 200)
  }

  @Test func aRotatedTokenReplacesTheOldOneAtOnce() throws {
    let old = try #require(alice.token)
    let rotated = try LifelogProcess.run(
      ["serve", "user", "token", "alice"] + server.storeArguments)
    #expect(rotated.exitCode == 0)
    let token = rotated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(token.hasPrefix("llt_") && token != old)
    #expect(
      try HTTPTestClient(baseURL: server.baseURL, token: old).get("/v1/manifest").status == 401)
    #expect(
      try HTTPTestClient(baseURL: server.baseURL, token: token).get("/v1/manifest").status == 200)
    if !server.usesPostgres {
      let database = try String(
        contentsOfFile: server.dataFolder + "/server.db", encoding: .isoLatin1)
      #expect(!database.contains(token) && !database.contains(old))
    }
  }

  @Test func removingAUserDeletesTheirDataAndTheirToken() throws {
    let bob = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("bob"))
    #expect(
      try bob.put("/v1/batches/\(device)/1", SampleBatches.batch(device: device, seq: 1)).status
        == 201)
    #expect(
      try alice.put("/v1/batches/\(device)/1", SampleBatches.batch(device: device, seq: 1)).status
        == 201)
    let list = try LifelogProcess.run(["serve", "user", "list"] + server.storeArguments)
    #expect(list.exitCode == 0)
    #expect(
      list.stdout.split(separator: "\n").map { $0.split(separator: " ").first ?? "" } == [
        "USER", "alice", "bob",
      ])
    let removed = try LifelogProcess.run(
      ["serve", "user", "remove", "bob"] + server.storeArguments)
    #expect(removed.exitCode == 0)
    #expect(removed.stdout == "Removed user 'bob' with 1 batch(es) and 0 snapshot(s)\n")
    #expect(try bob.get("/v1/manifest").status == 401)
    #expect(try alice.get("/v1/batches/\(device)").json["batches"] as? Int == 1)
    let again = try LifelogProcess.run(
      ["serve", "user", "remove", "bob"] + server.storeArguments)
    #expect(again.exitCode == 65)
    #expect(again.stderr.contains("No user is named 'bob'"))
    let taken = try LifelogProcess.run(
      ["serve", "user", "add", "alice"] + server.storeArguments)
    #expect(taken.exitCode == 65)
    #expect(taken.stdout.isEmpty)
  }

  @Test func keyEnvelopesAreKeptAsOpaqueVersionsThatOnlyCountUp() throws {
    let none = try alice.get("/v1/keys")
    #expect(none.status == 404)
    #expect(none.errorCode == "no_keys")
    let first = Array("envelope one".utf8)
    #expect(try alice.put("/v1/keys/2", first).status == 409, "versions start at 1")
    #expect(try alice.get("/v1/manifest").json["minVersion"] as? String == "0.2.0")
    #expect(try alice.put("/v1/keys/1", first).status == 201)
    let manifest = try alice.get("/v1/manifest").json
    #expect(manifest["encrypted"] as? Bool == true)
    #expect(manifest["minVersion"] as? String == "0.3.0", "0.2.0 would push plain batches")
    #expect(try alice.put("/v1/keys/1", first).status == 200, "a retry is acknowledged")
    let latest = try alice.get("/v1/keys")
    #expect(latest.status == 200)
    #expect(latest.body == first)
    #expect(latest.header("Lifelog-Key-Version") == "1")
    // Two machines change the passphrase at once: the first wins, the second must re-read.
    #expect(try alice.put("/v1/keys/2", Array("from A".utf8)).status == 201)
    let loser = try alice.put("/v1/keys/2", Array("from B".utf8))
    #expect(loser.status == 409)
    #expect(loser.errorCode == "conflict")
    #expect(try alice.get("/v1/keys").body == Array("from A".utf8))
    #expect(try alice.put("/v1/keys/3", []).status == 400)
    #expect(try alice.put("/v1/keys/3", [UInt8](repeating: 1, count: 65 * 1024)).status == 413)
    #expect(try alice.put("/v1/keys/0", first).status == 400)
    let bob = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("bob"))
    #expect(try bob.get("/v1/keys").status == 404, "one user never sees another's keys")

    // An encrypted remote never holds plaintext: plain bodies are refused once it holds keys,
    // and a remote that already holds plain data cannot become encrypted.
    let plain = try alice.put(
      "/v1/batches/\(device)/1", SampleBatches.batch(device: device, seq: 1))
    #expect(plain.status == 400)
    #expect(plain.errorCode == "not_sealed")
    #expect(
      try bob.put("/v1/batches/\(device)/1", SampleBatches.batch(device: device, seq: 1)).status
        == 201)
    #expect(try bob.put("/v1/keys/1", first).status == 409)
    #expect(try bob.get("/v1/keys").status == 404)
  }

  @Test func eachRequestIsLoggedWithoutItsQuery() throws {
    _ = try alice.get("/v1/changes?after=&exclude=\(device)")
    _ = try HTTPTestClient(baseURL: server.baseURL).get("/v1/manifest")
    #expect(server.terminate() == 0)
    let lines = server.log.split(separator: "\n")
    #expect(lines.contains { $0.hasSuffix("ms") && $0.contains(" GET /v1/changes 200 ") })
    #expect(lines.contains { $0.contains(" GET /v1/manifest 401 ") })
    #expect(!server.log.contains(device))
    #expect(!server.log.contains(alice.token ?? "-"))
    #expect(server.log.contains("stopped"))
  }
}

/// A parsed `GET /v1/changes` body: the JSON index line, then each batch's bytes.
struct ChangesBody {
  struct Item {
    var device: String
    var seq: Int
    var cursor: Int
    var bytes: [UInt8]
  }

  var cursor: String
  var more: Bool
  var needsSnapshot: Bool
  var batches: [Item]

  init(_ response: HTTPTestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(response.status == 200, "\(response.text)", sourceLocation: sourceLocation)
    #expect(
      response.header("Content-Type") == "application/vnd.lifelog.changes",
      sourceLocation: sourceLocation)
    let body = response.body
    let newline = try #require(body.firstIndex(of: 0x0A))
    let index = try #require(
      try JSONSerialization.jsonObject(with: Data(body[..<newline])) as? [String: Any])
    cursor = try #require(index["cursor"] as? String)
    more = try #require(index["more"] as? Bool)
    needsSnapshot = try #require(index["needsSnapshot"] as? Bool)
    var offset = newline + 1
    batches = []
    for entry in try #require(index["batches"] as? [[String: Any]]) {
      let size = try #require(entry["size"] as? Int)
      batches.append(
        Item(
          device: try #require(entry["device"] as? String), seq: try #require(entry["seq"] as? Int),
          cursor: try #require(entry["cursor"] as? Int), bytes: Array(body[offset..<offset + size]))
      )
      offset += size
    }
    #expect(offset == body.count, sourceLocation: sourceLocation)
  }
}
