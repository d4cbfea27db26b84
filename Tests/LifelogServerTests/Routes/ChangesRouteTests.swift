import Foundation
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// `GET /v1/changes`: one JSON index line, then each batch's bytes; in process.
@Suite struct ChangesRouteTests {
  let harness: RouteHarness
  let token: String
  let reader = "reader"
  let writer = "writer"

  init() throws {
    harness = try RouteHarness()
    token = try harness.addUser("alice")
  }

  func push(_ device: String, _ seqs: ClosedRange<Int>) {
    for seq in seqs {
      let bytes = SampleBatches.batch(device: device, seq: seq)
      #expect(
        harness.send("PUT", "/v1/batches/\(device)/\(seq)", token: token, body: bytes).status
          == 201)
    }
  }

  /// The index line and the bytes after it.
  func page(_ target: String) throws -> (index: [String: Any], rest: [UInt8]) {
    let answer = harness.send("GET", target, token: token)
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.header("Content-Type") == "application/vnd.lifelog.changes")
    let newline = try #require(answer.body.firstIndex(of: 0x0A))
    let index = try #require(
      try JSONSerialization.jsonObject(with: Data(answer.body[..<newline])) as? [String: Any])
    return (index, Array(answer.body[(newline + 1)...]))
  }

  @Test func anEmptyPageIsOneLine() {
    let empty = harness.send("GET", "/v1/changes", token: token)
    #expect(empty.status == 200)
    #expect(empty.response.headers.map(\.name) == ["Content-Type"])
    #expect(
      empty.text == "{\"cursor\":\"0\",\"more\":false,\"needsSnapshot\":false,\"batches\":[]}\n")
  }

  @Test func aPageIndexesItsBatchesThenCarriesTheirBytesInOrder() throws {
    push(writer, 1...2)
    let one = SampleBatches.batch(device: writer, seq: 1)
    let two = SampleBatches.batch(device: writer, seq: 2)
    let answer = harness.send("GET", "/v1/changes", token: token)
    let line =
      "{\"cursor\":\"2\",\"more\":false,\"needsSnapshot\":false,\"batches\":["
      + "{\"device\":\"writer\",\"seq\":1,\"cursor\":1,\"rows\":3,\"size\":\(one.count)},"
      + "{\"device\":\"writer\",\"seq\":2,\"cursor\":2,\"rows\":3,\"size\":\(two.count)}]}\n"
    #expect(answer.body == Array(line.utf8) + one + two)
  }

  @Test func pagesFollowTheCursorWithoutTheReadersOwnDevice() throws {
    for seq in 1...5 {
      push(writer, seq...seq)
      push(reader, seq...seq)
    }
    var cursor = ""
    var seqs: [Int] = []
    var pages = 0
    while pages < 10 {
      let (index, _) = try page("/v1/changes?after=\(cursor)&exclude=\(reader)&limit=2")
      pages += 1
      let batches = try #require(index["batches"] as? [[String: Any]])
      #expect(batches.count <= 2)
      #expect(batches.allSatisfy { $0["device"] as? String == writer })
      seqs += batches.compactMap { $0["seq"] as? Int }
      cursor = try #require(index["cursor"] as? String)
      if index["more"] as? Bool != true { break }
    }
    #expect(seqs == [1, 2, 3, 4, 5])
    #expect(pages == 3)
  }

  @Test func rowsBoundAPageButItHoldsAtLeastOneBatch() throws {
    push(writer, 1...3)
    let (index, _) = try page("/v1/changes?rows=4")
    #expect((index["batches"] as? [Any])?.count == 1)
    #expect(index["more"] as? Bool == true)
  }

  @Test(arguments: [
    "after=../../x", "after=01", "after=1_dev", "exclude=../x", "exclude=", "limit=-3", "limit=0",
    "limit=+5", "limit=", "limit=1.5", "rows=0", "rows=x", "LIMIT=abc", "Exclude=a.b",
  ])
  func malformedArgumentsAre400(query: String) {
    #expect(harness.send("GET", "/v1/changes?" + query, token: token).isError(400, "bad_request"))
  }

  @Test func aNumberPastEveryLimitAsksForTheMost() throws {
    push(writer, 1...2)
    let (index, _) = try page(
      "/v1/changes?limit=99999999999999999999999&rows=74607916342650779729")
    #expect((index["batches"] as? [Any])?.count == 2)
  }

  /// As libmicrohttpd looks them up: the first of a name counts, and one without `=` is missing.
  @Test func theFirstArgumentOfANameCountsAndOneWithoutAValueIsMissing() {
    #expect(harness.send("GET", "/v1/changes?limit=1&limit=abc", token: token).status == 200)
    #expect(harness.send("GET", "/v1/changes?limit&limit=abc", token: token).status == 200)
    #expect(harness.send("GET", "/v1/changes?limit=abc&limit=1", token: token).status == 400)
  }

  @Test func oneUserNeverSeesAnothersChanges() throws {
    push(writer, 1...1)
    let bob = try harness.addUser("bob")
    #expect(
      harness.send("GET", "/v1/changes", token: bob).text
        == "{\"cursor\":\"0\",\"more\":false,\"needsSnapshot\":false,\"batches\":[]}\n")
  }

  @Test func aReaderBehindCompactedBatchesIsToldToReadASnapshot() throws {
    push(writer, 1...4)
    let snapshot = SampleBatches.snapshot(device: writer, covers: [writer: 3])
    #expect(harness.send("PUT", "/v1/snapshots/300-w", token: token, body: snapshot).status == 201)
    let deleted = harness.send("DELETE", "/v1/batches/\(writer)?through=3", token: token)
    #expect(deleted.status == 200)
    let (blocked, _) = try page("/v1/changes?exclude=\(reader)")
    #expect(blocked["needsSnapshot"] as? Bool == true)
    #expect((blocked["batches"] as? [Any])?.isEmpty == true)
  }
}
