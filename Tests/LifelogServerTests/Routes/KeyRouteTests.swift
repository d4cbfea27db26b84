import LifelogTestSupport
import Testing

@testable import LifelogServer

/// `GET /v1/keys` and `PUT /v1/keys/{version}`: opaque key envelopes that only count up; in
/// process.
@Suite struct KeyRouteTests {
  let harness: RouteHarness
  let token: String
  let first = Array("envelope one".utf8)

  init() throws {
    harness = try RouteHarness()
    token = try harness.addUser("alice")
  }

  func put(_ version: String, _ bytes: [UInt8]) -> RouteAnswer {
    harness.send("PUT", "/v1/keys/\(version)", token: token, body: bytes)
  }

  @Test func aRemoteWithoutKeysSaysItIsNotEncrypted() {
    let none = harness.send("GET", "/v1/keys", token: token)
    #expect(none.isError(404, "no_keys"))
    #expect(none.errorMessage == "This remote holds no key envelope: it is not encrypted")
  }

  @Test func envelopesStartAtOneAndCountUpOneAtATime() {
    #expect(put("2", first).isError(409, "conflict"))
    let created = put("1", first)
    #expect(created.status == 201)
    #expect(created.text == "{\"version\":1,\"status\":\"created\"}\n")
    #expect(put("1", first).text == "{\"version\":1,\"status\":\"exists\"}\n")
    let latest = harness.send("GET", "/v1/keys", token: token)
    #expect(latest.status == 200)
    #expect(latest.body == first)
    #expect(
      latest.response.headers.map { "\($0.name): \($0.value)" } == [
        "Content-Type: application/octet-stream", "Lifelog-Key-Version: 1",
      ])
    #expect(put("2", Array("from A".utf8)).status == 201)
    let loser = put("2", Array("from B".utf8))
    #expect(loser.isError(409, "conflict"))
    #expect(
      loser.errorMessage
        == "Key envelope version 2 is taken or not the next one (or, for version 1, the remote "
        + "already holds unencrypted data); read GET /v1/keys and try again")
    #expect(harness.send("GET", "/v1/keys", token: token).body == Array("from A".utf8))
    #expect(harness.send("GET", "/v1/keys", token: token).header("Lifelog-Key-Version") == "2")
  }

  @Test func anEmptyOrOversizedEnvelopeOrABadVersionIsRefused() {
    let empty = put("1", [])
    #expect(empty.isError(400, "bad_request"))
    #expect(empty.errorMessage == "The body is empty; send the key envelope's bytes")
    let large = put("1", [UInt8](repeating: 1, count: 64 * 1024 + 1))
    #expect(large.isError(413, "too_large"))
    #expect(large.errorMessage == "A key envelope may be at most 65536 bytes, not 65537")
    #expect(put("1", [UInt8](repeating: 1, count: 64 * 1024)).status == 201)
    for version in ["0", "-1", "01", "x", "1000000000000000"] {
      #expect(put(version, first).isError(400, "bad_request"), "\(version)")
    }
  }

  @Test func aRemoteHoldingPlainDataCannotBecomeEncrypted() {
    let batch = SampleBatches.batch(device: "dev", seq: 1)
    #expect(harness.send("PUT", "/v1/batches/dev/1", token: token, body: batch).status == 201)
    #expect(put("1", first).isError(409, "conflict"))
    #expect(harness.send("GET", "/v1/keys", token: token).status == 404)
  }

  @Test func oneUserNeverSeesAnothersKeys() throws {
    #expect(put("1", first).status == 201)
    let bob = try harness.addUser("bob")
    #expect(harness.send("GET", "/v1/keys", token: bob).isError(404, "no_keys"))
  }
}
