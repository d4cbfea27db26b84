import Testing

@testable import LifelogSync

/// ``ChangesPage``, the one reading of a `GET /v1/changes` page that `sync` and `lifelog check`
/// share: the index is checked against the body before a byte of it is cut.
@Suite struct ChangesPageTests {
  static let d = "dddddddd-0000-4000-8000-000000000001"

  static func body(_ index: String, _ rest: String = "") -> [UInt8] {
    Array((index.replacingOccurrences(of: "\"D\"", with: "\"\(d)\"") + "\n" + rest).utf8)
  }

  @Test func aPageIsCutIntoItsListedBatchesInOrder() throws {
    let page = try ChangesPage(
      parsing: Self.body(
        #"{"cursor":"7","more":true,"needsSnapshot":true,"batches":[{"device":"D","seq":2,"cursor":5,"size":3},{"device":"D","seq":3,"size":2}]}"#,
        "abcde"))
    #expect(page.cursor == "7" && page.more && page.needsSnapshot)
    #expect(page.items.map(\.seq) == [2, 3])
    #expect(page.items.map(\.rank) == [5, nil])
    #expect(page.items.map { String(decoding: $0.bytes, as: UTF8.self) } == ["abc", "de"])
  }

  @Test(arguments: [
    ("no index line", ChangesPage.Failure.unreadable),
    (#"{"cursor":"9&exclude=x","more":false,"batches":[]}"#, .unreadable),
    (#"{"cursor":9,"more":false,"batches":[]}"#, .unreadable),
    (#"{"cursor":"9","more":false}"#, .unreadable),
    (#"{"cursor":"9","batches":[{"device":"D","seq":2,"size":-1}]}"#, .badItem),
    (#"{"cursor":"9","batches":[{"device":"D","seq":2,"size":9223372036854775807}]}"#, .badItem),
    (#"{"cursor":"9","batches":[{"device":"D","seq":2,"size":6}]}"#, .badItem),
    (#"{"cursor":"9","batches":[{"device":"D","seq":0,"size":0}]}"#, .badItem),
    (#"{"cursor":"9","batches":[{"device":"D","seq":99999999999,"size":0}]}"#, .badItem),
    (#"{"cursor":"9","batches":[{"device":"../D","seq":2,"size":0}]}"#, .badItem),
    (#"{"cursor":"9","batches":[{"seq":2,"size":0}]}"#, .badItem),
  ])
  func anIndexThatDoesNotFitItsBodyIsRefused(index: String, failure: ChangesPage.Failure) {
    let body = index == "no index line" ? Array("short".utf8) : Self.body(index, "short")
    #expect(throws: failure) { try ChangesPage(parsing: body) }
  }
}
