import Foundation
import LifelogCore
import LifelogProtocol
import LifelogSync
import LifelogTestSupport
import Testing

/// `HTTPRemote.pull` against a server that lies: a real socket on 127.0.0.1 answering each
/// `GET /v1/changes` with a page the test wrote.
///
/// An index whose numbers do not fit the body is refused without a trap; a page that leaves a batch
/// out, or carries one that does not read, holds back only that batch's device, and the next pass
/// asks again from where it was served.
@Suite struct HTTPRemotePageTests {
  static let d = "dddddddd-0000-4000-8000-000000000001"
  static let e = "eeeeeeee-0000-4000-8000-000000000002"

  /// One page: the index line, then the batches back to back.
  static func page(
    cursor: String, items: [(device: String, seq: Int, cursor: Int, bytes: [UInt8])]
  ) -> [UInt8] {
    let listed = items.map {
      "{\"device\":\"\($0.device)\",\"seq\":\($0.seq),\"cursor\":\($0.cursor),\"rows\":3,\"size\":\($0.bytes.count)}"
    }
    let index =
      "{\"cursor\":\"\(cursor)\",\"more\":false,\"needsSnapshot\":false,\"batches\":[\(listed.joined(separator: ","))]}\n"
    return Array(index.utf8) + items.flatMap(\.bytes)
  }

  /// A server on 127.0.0.1 that answers every request 200 with the page `page` gives.
  static func server(page: @escaping @Sendable () -> [UInt8]) throws -> LoopbackServer {
    try LoopbackServer { _ in
      LoopbackServer.response(
        status: "200 OK", contentType: "application/vnd.lifelog.changes", body: page())
    }
  }

  static func remote(_ server: LoopbackServer) -> HTTPRemote {
    HTTPRemote(url: server.url, token: "t", deadline: LogStore.systemMilliseconds() + 20_000)
  }

  static let rules = PullRules(
    merged: VersionVector([d: 1, e: 1]), wall: LogStore.systemMilliseconds())

  @Test(arguments: [
    #"{"cursor":"9","more":false,"batches":[{"device":"D","seq":2,"cursor":9,"rows":1,"size":-1}]}"#,
    #"{"cursor":"9","more":false,"batches":[{"device":"D","seq":2,"cursor":9,"rows":1,"size":9223372036854775807}]}"#,
    #"{"cursor":"9","more":false,"batches":[{"device":"D","seq":2,"cursor":9,"rows":1,"size":400}]}"#,
    #"{"cursor":"9","more":false,"batches":[{"device":"../D","seq":2,"cursor":9,"rows":1,"size":0}]}"#,
    #"{"cursor":"9","more":false,"batches":[{"device":"D","seq":2,"rows":1,"size":0}]}"#,
    #"{"cursor":"9&exclude=x","more":false,"batches":[]}"#,
    #"{"cursor":9,"more":false,"batches":[]}"#,
  ])
  func anIndexWhoseNumbersDoNotFitIsRefusedWithoutATrap(index: String) throws {
    let server = try Self.server {
      Array((index.replacingOccurrences(of: "\"D\"", with: "\"\(Self.d)\"") + "\nshort").utf8)
    }
    defer { server.stop() }
    #expect(throws: SyncError.self) {
      _ = try Self.remote(server).pull(after: "", excluding: "me", rowLimit: 10, rules: Self.rules)
    }
  }

  /// A seq out of ``WireRange/seq`` (which a hostile store may still hold) holds back its own
  /// device only: the other device's batch on the same page is merged.
  @Test(arguments: [0, -3, 2_147_483_648, 999_999_999_999_999])
  func aSeqOutOfRangeHoldsBackOnlyItsDevice(seq: Int) throws {
    let e2 = SampleBatches.batch(device: Self.e, seq: 2)
    let server = try Self.server {
      Self.page(cursor: "12", items: [(Self.d, seq, 11, e2), (Self.e, 2, 12, e2)])
    }
    defer { server.stop() }
    let page = try Self.remote(server).pull(
      after: "", excluding: "me", rowLimit: 10, rules: Self.rules)
    #expect(page.batches.map(\.name) == ["\(Self.e)/2"])
    #expect(page.held.map(\.device) == [Self.d])
    #expect(page.held.first?.seq == 2)
  }

  @Test func aPageThatLeavesOutABatchHoldsOnlyItsDeviceAndTheNextPassAsksAgain() throws {
    let d3 = SampleBatches.batch(device: Self.d, seq: 3)
    let e2 = SampleBatches.batch(device: Self.e, seq: 2)
    let server = try Self.server {
      Self.page(cursor: "12", items: [(Self.d, 3, 11, d3), (Self.e, 2, 12, e2)])
    }
    defer { server.stop() }
    let remote = Self.remote(server)
    // The client merged D/1 from the page after "5" and E/1 from the page after "7".
    let before =
      #"{"next":"10","base":"","marks":{"\#(Self.d)":["5",3],"\#(Self.e)":["7",6]},"held":{},"rewound":false}"#
    let page = try remote.pull(after: before, excluding: "me", rowLimit: 100, rules: Self.rules)
    #expect(page.batches.map(\.name) == ["\(Self.e)/2"])
    #expect(page.held == [HeldBatch(device: Self.d, seq: 2, reason: .missing)])
    #expect(server.requests.last?.contains("after=10&") == true, "\(server.requests)")

    // The next pass starts where D's newest merged batch was served, and decides afresh.
    _ = try remote.pull(after: page.cursor, excluding: "me", rowLimit: 100, rules: Self.rules)
    #expect(server.requests.last?.contains("after=5&") == true, "\(server.requests)")
  }

  @Test func anUnreadableBatchHoldsOnlyItsDeviceAndTheOthersInThePageAreMerged() throws {
    var damaged = SampleBatches.batch(device: Self.d, seq: 2)
    damaged[damaged.count / 2] ^= 0x20
    let d2 = damaged
    let d3 = SampleBatches.batch(device: Self.d, seq: 3)
    let e2 = SampleBatches.batch(device: Self.e, seq: 2)
    let server = try Self.server {
      Self.page(
        cursor: "14", items: [(Self.d, 2, 11, d2), (Self.e, 2, 12, e2), (Self.d, 3, 13, d3)])
    }
    defer { server.stop() }
    let remote = Self.remote(server)
    let page = try remote.pull(after: "10", excluding: "me", rowLimit: 100, rules: Self.rules)
    #expect(page.batches.map(\.name) == ["\(Self.e)/2"])
    #expect(
      page.held.map(\.seq) == [2] && page.held.first?.reason.isUnreadable == true, "\(page.held)")
    _ = try remote.pull(after: page.cursor, excluding: "me", rowLimit: 100, rules: Self.rules)
    #expect(server.requests.last?.contains("after=10&") == true, "\(server.requests)")
  }

  @Test(arguments: ["401 Unauthorized", "400 Bad Request"])
  func aServerThatEchoesTheTokenDoesNotGetItIntoTheError(status: String) throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.response(
        status: status,
        body: Array(#"{"error":{"message":"refused: Authorization: Bearer sekrit-token"}}"#.utf8))
    }
    let remote = HTTPRemote(
      url: server.url, token: "sekrit-token", deadline: LogStore.systemMilliseconds() + 20_000)
    #expect {
      try remote.pull(after: "", excluding: "d1", rowLimit: 10)
    } throws: { error in
      !"\(error)".contains("sekrit-token") && "\(error)".contains("left out")
    }
  }
}
