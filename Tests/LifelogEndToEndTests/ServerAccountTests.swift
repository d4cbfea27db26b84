import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

/// `lifelog serve` as a process, over real HTTP: the rate limit, token rotation, removing a user,
/// key envelopes and the request log.
@Suite struct ServerAccountTests {
  let folder = TemporaryDirectory(prefix: "lifelog-serve")
  let server: ServerProcess
  let alice: HTTPTestClient
  let device = UUIDText.random()

  init() throws {
    server = try ServerProcess(dataFolder: folder.file("data"))
    alice = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("alice"))
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
