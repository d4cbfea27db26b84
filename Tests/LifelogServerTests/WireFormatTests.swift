import LifelogProtocol
import Testing

@testable import LifelogServer

/// The server speaks the wire format of LifelogProtocol: the paths the client builds route where
/// the client means, and a page of changes the store fills reads back through the client's reader.
@Suite struct WireFormatTests {
  @Test func everyPathTheClientBuildsRoutesToItsRoute() throws {
    #expect(try Router.route(method: "GET", path: APIPath.info) == .info)
    #expect(try Router.route(method: "GET", path: APIPath.manifest) == .manifest)
    #expect(try Router.route(method: "GET", path: APIPath.changes) == .changes)
    #expect(try Router.route(method: "GET", path: APIPath.keys) == .keys)
    #expect(
      try Router.route(method: "PUT", path: APIPath.keyEnvelope(version: 2)) == .putKeys(version: 2)
    )
    #expect(
      try Router.route(method: "GET", path: APIPath.batches(device: "d-1"))
        == .batchCount(device: "d-1"))
    #expect(
      try Router.route(method: "DELETE", path: APIPath.batches(device: "d-1"))
        == .deleteBatches(device: "d-1"))
    #expect(
      try Router.route(method: "PUT", path: APIPath.batch(device: "d-1", seq: 9))
        == .putBatch(device: "d-1", seq: 9))
    #expect(try Router.route(method: "GET", path: APIPath.latestSnapshot) == .latestSnapshot)
    #expect(
      try Router.route(method: "GET", path: APIPath.snapshot("s-1")) == .snapshot(name: "s-1"))
    #expect(
      try Router.route(method: "PUT", path: APIPath.snapshot("s-1")) == .putSnapshot(name: "s-1"))
  }

  @Test func aStorePageIsAnsweredInTheClientsFormatWithEveryItemsCursorAndRows() throws {
    let page = ChangesPage(
      items: [
        ChangesPage.Item(device: "d-1", seq: 3, cursor: 40, rows: 2, bytes: Array("ab".utf8)),
        ChangesPage.Item(device: "d-2", seq: 1, cursor: 41, rows: 5, bytes: Array("cde".utf8)),
      ],
      cursor: ServerCursor(position: 41, floor: VersionVector(["d-3": 2])), more: false,
      needsSnapshot: true)
    let response = ChangesEncoding.response(page)
    #expect(response.status == 200)
    #expect(response.headers.first { $0.0 == "Content-Type" }?.1 == ContentType.changes)
    #expect(
      String(decoding: response.body, as: UTF8.self)
        == #"{"cursor":"41_d-3_2","more":false,"needsSnapshot":true,"batches":["#
        + #"{"device":"d-1","seq":3,"cursor":40,"rows":2,"size":2},"#
        + #"{"device":"d-2","seq":1,"cursor":41,"rows":5,"size":3}]}"# + "\nabcde")
    let read = try ChangesBody(parsing: response.body)
    #expect(read.cursor == page.cursor.token && !read.more && read.needsSnapshot)
    #expect(read.items.map(\.rank) == [40, 41] && read.items.map(\.rows) == [2, 5])
    #expect(read.items.map(\.bytes) == [Array("ab".utf8), Array("cde".utf8)])
  }
}
