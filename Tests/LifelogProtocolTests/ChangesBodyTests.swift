import Foundation
import LifelogProtocol
import Testing

/// ``ChangesBody``, the one reading of a `GET /v1/changes` page that `sync` and `lifelog check`
/// share: the index is checked against the body before a byte of it is cut.
@Suite struct ChangesBodyTests {
  static let d = "dddddddd-0000-4000-8000-000000000001"

  static func body(_ index: String, _ rest: String = "") -> [UInt8] {
    Array((index.replacingOccurrences(of: "\"D\"", with: "\"\(d)\"") + "\n" + rest).utf8)
  }

  @Test func aPageIsCutIntoItsListedBatchesInOrder() throws {
    let page = try ChangesBody(
      parsing: Self.body(
        #"{"cursor":"7","more":true,"needsSnapshot":true,"batches":[{"device":"D","seq":2,"cursor":5,"size":3},{"device":"D","seq":3,"size":2}]}"#,
        "abcde"))
    #expect(page.cursor == "7" && page.more && page.needsSnapshot)
    #expect(page.items.map(\.seq) == [2, 3])
    #expect(page.items.map(\.rank) == [5, nil])
    #expect(page.items.map { String(decoding: $0.bytes, as: UTF8.self) } == ["abc", "de"])
  }

  @Test(arguments: [
    ("no index line", ChangesBody.Failure.unreadable),
    (#"{"cursor":"9&exclude=x","more":false,"batches":[]}"#, .unreadable),
    (#"{"cursor":9,"more":false,"batches":[]}"#, .unreadable),
    (#"{"cursor":"9","more":false}"#, .unreadable),
    (#"{"cursor":"9","batches":[{"device":"D","seq":2,"size":-1}]}"#, .badItem),
    (#"{"cursor":"9","batches":[{"device":"D","seq":2,"size":9223372036854775807}]}"#, .badItem),
    (#"{"cursor":"9","batches":[{"device":"D","seq":2,"size":6}]}"#, .badItem),
    (#"{"cursor":"9","batches":[{"device":"../D","seq":2,"size":0}]}"#, .badItem),
    (#"{"cursor":"9","batches":[{"seq":2,"size":0}]}"#, .badItem),
  ])
  func anIndexThatDoesNotFitItsBodyIsRefused(index: String, failure: ChangesBody.Failure) {
    let body = index == "no index line" ? Array("short".utf8) : Self.body(index, "short")
    #expect(throws: failure) { try ChangesBody(parsing: body) }
  }

  /// A seq out of ``WireRange/seq`` refuses its own entry, never the page: the other devices'
  /// batches around it are still read.
  @Test(arguments: ["0", "2147483648", "999999999999999", "-1", "\"7\"", "null"])
  func aSeqOutOfRangeRefusesItsEntryOnly(seq: String) throws {
    let index =
      #"{"cursor":"9","batches":[{"device":"D","seq":\#(seq),"cursor":3,"size":2},"#
      + #"{"device":"E","seq":4,"cursor":4,"size":3}]}"#
    let page = try ChangesBody(parsing: Self.body(index, "short"))
    #expect(
      page.items.map(\.refusal) == ["its seq is not a whole number from 1 to 2147483647", nil])
    #expect(page.items.map(\.rank) == [3, 4])
    #expect(page.items[1].seq == 4)
    #expect(String(decoding: page.items[1].bytes, as: UTF8.self) == "ort")
  }
}

/// ``ChangesBody/encoded``, the server's side of the same body: what it writes reads back as it
/// was, byte for byte, and in the spelling docs/http-api.md shows.
@Suite struct ChangesBodyEncodingTests {
  static let page = ChangesBody(
    cursor: "12_dev-a_3", more: true, needsSnapshot: false,
    items: [
      ChangesBody.Item(device: "dev-a", seq: 4, rank: 11, rows: 2, bytes: Array("abc".utf8)),
      ChangesBody.Item(device: "dev-b", seq: 1, rank: 12, rows: 0, bytes: []),
      ChangesBody.Item(device: "dev-b", seq: 2, rank: 13, rows: 1, bytes: Array("\n{}\n".utf8)),
    ])

  @Test func aPageRoundTripsThroughItsBytes() throws {
    let bytes = Self.page.encoded
    #expect(try ChangesBody(parsing: bytes) == Self.page)
    #expect(try ChangesBody(parsing: bytes).encoded == bytes)
  }

  @Test func theIndexLineIsTheDocumentedOneAndTheBatchesFollowBackToBack() {
    let expected =
      #"{"cursor":"12_dev-a_3","more":true,"needsSnapshot":false,"batches":["#
      + #"{"device":"dev-a","seq":4,"cursor":11,"rows":2,"size":3},"#
      + #"{"device":"dev-b","seq":1,"cursor":12,"rows":0,"size":0},"#
      + #"{"device":"dev-b","seq":2,"cursor":13,"rows":1,"size":4}]}"# + "\nabc\n{}\n"
    #expect(String(decoding: Self.page.encoded, as: UTF8.self) == expected)
  }

  @Test func anEmptyLastPageRoundTrips() throws {
    let empty = ChangesBody(cursor: "0", more: false, needsSnapshot: true, items: [])
    #expect(
      String(decoding: empty.encoded, as: UTF8.self)
        == #"{"cursor":"0","more":false,"needsSnapshot":true,"batches":[]}"# + "\n")
    #expect(try ChangesBody(parsing: empty.encoded) == empty)
  }
}
