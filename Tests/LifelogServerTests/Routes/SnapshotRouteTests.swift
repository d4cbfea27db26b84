import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// `PUT`, `GET` and `HEAD` of `/v1/snapshots/{name}` and `/v1/snapshots/latest`, in process.
@Suite struct SnapshotRouteTests {
  let harness: RouteHarness
  let token: String
  let writer = "writer"
  let reader = "reader"

  init() throws {
    harness = try RouteHarness()
    token = try harness.addUser("alice")
    for seq in 1...3 {
      let bytes = SampleBatches.batch(device: writer, seq: seq)
      _ = harness.send("PUT", "/v1/batches/\(writer)/\(seq)", token: token, body: bytes)
    }
  }

  func put(_ name: String, _ bytes: [UInt8]) -> RouteAnswer {
    harness.send("PUT", "/v1/snapshots/\(name)", token: token, body: bytes)
  }

  @Test func aSnapshotIsCreatedOnceAndNeverOverwritten() {
    let bytes = SampleBatches.snapshot(device: writer, covers: [writer: 3])
    let created = put("200-w", bytes)
    #expect(created.status == 201)
    #expect(created.text == "{\"name\":\"200-w\",\"status\":\"created\"}\n")
    #expect(put("200-w", bytes).text == "{\"name\":\"200-w\",\"status\":\"exists\"}\n")
    let other = put("200-w", SampleBatches.snapshot(device: writer, covers: [writer: 2]))
    #expect(other.isError(409, "conflict"))
    #expect(
      other.errorMessage
        == "A different snapshot named '200-w' is already stored; nothing was overwritten")
  }

  @Test func aBatchAnEmptyBodyOrABadDeviceIsNoSnapshot() {
    let batch = put("200-w", SampleBatches.batch(device: writer, seq: 1))
    #expect(batch.isError(400, "bad_batch"))
    #expect(batch.errorMessage == "The body is a batch, not a snapshot")
    #expect(put("200-w", []).isError(400, "bad_batch"))
    for bad in ["a_b", "a b", "", String(repeating: "d", count: 129)] {
      let refused = put("200-w", SampleBatches.snapshot(device: bad, covers: [writer: 1]))
      #expect(refused.isError(400, "bad_batch"), "\(bad)")
    }
    #expect(
      put("..", SampleBatches.snapshot(device: writer, covers: [:])).isError(400, "bad_request"))
    #expect(harness.send("GET", "/v1/snapshots/latest", token: token).isError(404, "not_found"))
  }

  @Test func theLatestIsServedWithWhatItCoversAndTheCursorPastIt() throws {
    let bytes = SampleBatches.snapshot(device: writer, covers: [writer: 3])
    #expect(put("200-w", bytes).status == 201)
    let full = harness.send("GET", "/v1/snapshots/latest?after=&exclude=\(reader)", token: token)
    #expect(full.status == 200)
    #expect(full.body == bytes)
    let names = full.response.headers.map(\.name)
    #expect(
      names == [
        "Content-Type", "Lifelog-Snapshot-Name", "Lifelog-Snapshot-Device",
        "Lifelog-Snapshot-Created", "Lifelog-Snapshot-Covers", "Lifelog-Snapshot-SHA256",
        "Lifelog-Cursor",
      ])
    #expect(full.header("Content-Type") == "application/vnd.lifelog.snapshot")
    #expect(full.header("Lifelog-Snapshot-Name") == "200-w")
    #expect(full.header("Lifelog-Snapshot-Device") == writer)
    #expect(full.header("Lifelog-Snapshot-Created") == "1780000000000")
    #expect(full.header("Lifelog-Snapshot-Covers") == "{\"writer\":3}")
    #expect(full.header("Lifelog-Snapshot-SHA256") == SHA256.hexDigest(bytes))
    let cursor = try #require(full.header("Lifelog-Cursor"))
    #expect(cursor == "0_writer_3", "no batch read yet, and the writer's three merged")

    let meta = harness.send(
      "GET", "/v1/snapshots/latest?after=&exclude=\(reader)&meta=1", token: token)
    #expect(
      meta.text
        == "{\"name\":\"200-w\",\"device\":\"writer\",\"created\":1780000000000,"
        + "\"covers\":{\"writer\":3},\"size\":\(bytes.count),"
        + "\"sha256\":\"\(SHA256.hexDigest(bytes))\",\"cursor\":\"\(cursor)\"}\n")
    let named = harness.send("GET", "/v1/snapshots/200-w", token: token)
    #expect(named.body == bytes)
    let head = harness.send("HEAD", "/v1/snapshots/200-w", token: token)
    #expect(head.response.headers.map(\.name) == names, "libmicrohttpd drops a HEAD's body")
  }

  @Test func theLatestIsNotOfferedToItsWriterNorToAReaderPastIt() throws {
    #expect(put("200-w", SampleBatches.snapshot(device: writer, covers: [writer: 3])).status == 201)
    let own = harness.send("GET", "/v1/snapshots/latest?exclude=\(writer)", token: token)
    #expect(own.isError(404, "not_found"))
    #expect(own.errorMessage == "No snapshot holds batches that this cursor has not reached")
    let past = harness.send("GET", "/v1/snapshots/latest?after=3&exclude=\(reader)", token: token)
    #expect(past.isError(404, "not_found"))
    let missing = harness.send("GET", "/v1/snapshots/300-w", token: token)
    #expect(missing.isError(404, "not_found"))
    #expect(missing.errorMessage == "No snapshot is named '300-w'")
  }

  @Test(arguments: ["meta=2", "meta=", "after=x", "exclude=a.b"])
  func malformedArgumentsAre400(query: String) {
    #expect(
      harness.send("GET", "/v1/snapshots/latest?" + query, token: token).isError(
        400, "bad_request"))
  }

  @Test func oneUserNeverSeesAnothersSnapshots() throws {
    #expect(put("200-w", SampleBatches.snapshot(device: writer, covers: [writer: 3])).status == 201)
    let bob = try harness.addUser("bob")
    #expect(harness.send("GET", "/v1/snapshots/latest", token: bob).status == 404)
    #expect(harness.send("GET", "/v1/snapshots/200-w", token: bob).status == 404)
  }
}
