import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// `PUT /v1/batches/{device}/{seq}`, `GET` and `DELETE /v1/batches/{device}`, in process.
@Suite struct BatchRouteTests {
  let harness: RouteHarness
  let token: String
  let device = "dev-1"

  init() throws {
    harness = try RouteHarness()
    token = try harness.addUser("alice")
  }

  func put(_ seq: Int, _ bytes: [UInt8], as user: String? = nil) -> RouteAnswer {
    harness.send("PUT", "/v1/batches/\(device)/\(seq)", token: user ?? token, body: bytes)
  }

  @Test func aBatchIsCreatedOnceThenAcknowledgedAndNeverOverwritten() {
    let bytes = SampleBatches.batch(device: device, seq: 1)
    let created = put(1, bytes)
    #expect(created.status == 201)
    #expect(created.header("Content-Type") == "application/json")
    #expect(
      created.text == "{\"device\":\"dev-1\",\"seq\":1,\"cursor\":1,\"status\":\"created\"}\n")
    let again = put(1, bytes)
    #expect(again.status == 200)
    #expect(again.text == "{\"device\":\"dev-1\",\"seq\":1,\"cursor\":1,\"status\":\"exists\"}\n")
    let different = put(1, SampleBatches.batch(device: device, seq: 1, note: "other"))
    #expect(different.isError(409, "conflict"))
    #expect(
      different.errorMessage
        == "A different batch 1 of device dev-1 is already stored; nothing was overwritten")
    // Past the first (PostgreSQL's sequence may skip the numbers a refused insert took).
    let next = put(2, SampleBatches.batch(device: device, seq: 2))
    #expect(next.json["cursor"] as? Int ?? 0 > 1)
  }

  @Test func damagedEmptyMisnamedOrSnapshotBodiesAreRefusedAndNothingIsStored() {
    var damaged = SampleBatches.batch(device: device, seq: 1)
    damaged[damaged.count / 2] ^= 0x01
    #expect(put(1, damaged).isError(400, "bad_batch"))
    let truncated = Array(SampleBatches.batch(device: device, seq: 1).dropLast(9))
    #expect(put(1, truncated).isError(400, "bad_batch"))
    let empty = put(1, [])
    #expect(empty.isError(400, "bad_batch"))
    #expect(empty.errorMessage == "The body is empty; send the batch's bytes")
    let misnamed = put(2, SampleBatches.batch(device: device, seq: 1))
    #expect(misnamed.isError(400, "name_mismatch"))
    #expect(
      misnamed.errorMessage
        == "The batch's header names device dev-1 seq 1, not the path's dev-1 2")
    let other = put(1, SampleBatches.batch(device: "dev-2", seq: 1))
    #expect(other.isError(400, "name_mismatch"))
    let snapshot = put(1, SampleBatches.snapshot(device: device, covers: [device: 1]))
    #expect(snapshot.isError(400, "bad_batch"))
    #expect(snapshot.errorMessage == "The body is a snapshot, not a batch")
    #expect(harness.send("GET", "/v1/batches/\(device)", token: token).json["batches"] as? Int == 0)
  }

  @Test(arguments: [
    "/v1/batches/../1", "/v1/batches/a.b/1", "/v1/batches/a%2Fb/1", "/v1/batches/a b/1",
    "/v1/batches/dev/0", "/v1/batches/dev/-1", "/v1/batches/dev/01", "/v1/batches/dev/+1",
    "/v1/batches/dev/1000000000000000", "/v1/batches//1",
    "/v1/batches/" + String(repeating: "d", count: 129) + "/1",
  ])
  func malformedDevicesAndSeqsAre400(path: String) {
    let refused = harness.send("PUT", path, token: token, body: [1])
    #expect(refused.isError(400, "bad_request"))
  }

  @Test func theCountTellsHowManyBatchesADeviceHasAndItsHighestSeq() {
    let none = harness.send("GET", "/v1/batches/\(device)", token: token)
    #expect(none.text == "{\"device\":\"dev-1\",\"batches\":0,\"highestSeq\":0}\n")
    for seq in [1, 2, 5] {
      #expect(put(seq, SampleBatches.batch(device: device, seq: seq)).status == 201)
    }
    let count = harness.send("GET", "/v1/batches/\(device)", token: token)
    #expect(count.status == 200)
    #expect(count.text == "{\"device\":\"dev-1\",\"batches\":3,\"highestSeq\":5}\n")
  }

  @Test func batchesAreDeletedOnlyThroughASeqThatASnapshotCovers() {
    for seq in 1...4 {
      #expect(put(seq, SampleBatches.batch(device: device, seq: seq)).status == 201)
    }
    let unsaid = harness.send("DELETE", "/v1/batches/\(device)", token: token)
    #expect(unsaid.isError(400, "bad_request"))
    #expect(unsaid.errorMessage == "Say which batches to delete with '?through=<seq>'")
    for through in ["0", "x", "-1", ""] {
      let bad = harness.send("DELETE", "/v1/batches/\(device)?through=\(through)", token: token)
      #expect(bad.isError(400, "bad_request"), "through=\(through)")
    }
    #expect(
      harness.send("DELETE", "/v1/batches/\(device)?through=3", token: token).isError(
        409, "not_covered"))
    let snapshot = SampleBatches.snapshot(device: device, covers: [device: 3])
    #expect(harness.send("PUT", "/v1/snapshots/300-x", token: token, body: snapshot).status == 201)
    let deleted = harness.send("DELETE", "/v1/batches/\(device)?through=3", token: token)
    #expect(deleted.status == 200)
    #expect(deleted.text == "{\"device\":\"dev-1\",\"through\":3,\"deleted\":3}\n")
    #expect(harness.send("GET", "/v1/batches/\(device)", token: token).json["batches"] as? Int == 1)
    #expect(put(2, SampleBatches.batch(device: device, seq: 2)).status == 200, "still recognised")
  }

  @Test func oneUsersBatchesAreNotAnothers() throws {
    let bob = try harness.addUser("bob")
    #expect(put(1, SampleBatches.batch(device: device, seq: 1)).status == 201)
    #expect(harness.send("GET", "/v1/batches/\(device)", token: bob).json["batches"] as? Int == 0)
    let his = put(1, SampleBatches.batch(device: device, seq: 1, note: "bob"), as: bob)
    #expect(his.status == 201)
    #expect(his.json["cursor"] as? Int == 1, "cursors count each user's own batches")
    #expect(
      harness.send("DELETE", "/v1/batches/\(device)?through=1", token: bob).isError(
        409, "not_covered"))
  }

  /// The server verifies a batch as a whole (trailer, checksum, header, row count) and leaves its
  /// rows to the clients that merge them (docs/http-api.md): a row only its writer could have
  /// malformed is stored, as a sealed batch's rows are, and refused by every puller as damaged.
  @Test func rowsAreLeftToTheClientsThatMergeThem() {
    let body =
      "{\"lifelog\":\"batch\",\"format\":1,\"device\":\"dev-1\",\"seq\":1,\"created\":1}\n"
      + "{\"entity\":\"nonsense\"}\n"
    let trailer =
      "{\"end\":true,\"changes\":1,\"sha256\":\"\(SHA256.hexDigest(Array(body.utf8)))\"}\n"
    let stored = put(1, Array((body + trailer).utf8))
    #expect(stored.status == 201)
    #expect(stored.text.contains("\"status\":\"created\""))
  }

  @Test func anEncryptedRemoteRefusesPlainBatches() throws {
    #expect(harness.send("PUT", "/v1/keys/1", token: token, body: [7]).status == 201)
    let plain = put(1, SampleBatches.batch(device: device, seq: 1))
    #expect(plain.isError(400, "not_sealed"))
    #expect(harness.send("GET", "/v1/batches/\(device)", token: token).json["batches"] as? Int == 0)
  }
}
