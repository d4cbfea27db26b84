import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

/// `lifelog serve` as a process, over real HTTP: changes pages in server order, snapshots and what
/// compaction leaves to each reader.
@Suite struct ServerChangesTests {
  let folder = TemporaryDirectory(prefix: "lifelog-serve")
  let server: ServerProcess
  let alice: HTTPTestClient
  let device = UUIDText.random()

  init() throws {
    server = try ServerProcess(dataFolder: folder.file("data"))
    alice = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("alice"))
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
