import LifelogCore
import LifelogProtocol
import Testing

/// The answer bodies server and client share: what the server encodes, the client reads back
/// whole, and a body that lies is refused, never trapped on.
@Suite struct AnswerBodyTests {
  static func bytes(_ object: JSONObjectWriter) -> [UInt8] { Array((object.result + "\n").utf8) }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test(arguments: [false, true])
  func aManifestRoundTrips(encrypted: Bool) throws {
    let manifest = ManifestBody(
      remoteID: "r-1", format: 1, minimumVersion: "0.3.0", user: "ana", encrypted: encrypted)
    #expect(try ManifestBody(parsing: Self.bytes(manifest.encoded)) == manifest)
    #expect(
      manifest.encoded.result.hasPrefix(
        #"{"lifelog":"remote","format":1,"remoteId":"r-1","minVersion":"0.3.0","user":"ana""#))
    #expect(manifest.encoded.result.contains(#""encrypted":true"#) == encrypted)
  }

  @Test(arguments: [
    "", "[]", #"{"format":1,"minVersion":"0.3.0"}"#,
    #"{"remoteId":"r","format":"1","minVersion":"0"}"#,
    #"{"remoteId":"r","format":1.5,"minVersion":"0"}"#, #"{"remoteId":"r","format":1}"#,
  ])
  func aManifestWithoutItsMembersIsRefused(body: String) {
    #expect(throws: AnswerBodyError("manifest")) { try ManifestBody(parsing: Self.bytes(body)) }
  }

  @Test func aSnapshotDescriptionRoundTrips() throws {
    let description = SnapshotDescription(
      name: "dev-a-3", device: "dev-a", created: 1_700_000_000_000,
      covers: VersionVector(["dev-a": 3, "dev-b": 1]), size: 512,
      sha256: String(repeating: "ab", count: 32), cursor: "17")
    #expect(try SnapshotDescription(parsing: Self.bytes(description.encoded)) == description)
    let minimal = SnapshotDescription(name: "s", cursor: "0")
    #expect(try SnapshotDescription(parsing: Self.bytes(minimal.encoded)) == minimal)
  }

  @Test(arguments: [
    #"{"name":"../etc","cursor":"1"}"#, #"{"name":"s","cursor":"not a token"}"#,
    #"{"name":"s"}"#, #"{"cursor":"1"}"#, "not json",
  ])
  func aSnapshotDescriptionWithABadNameOrCursorIsRefused(body: String) {
    #expect(throws: AnswerBodyError("snapshot description")) {
      try SnapshotDescription(parsing: Self.bytes(body))
    }
  }

  @Test func aBatchCountRoundTrips() throws {
    let count = BatchCountBody(device: "dev-a", batches: 3, highestSeq: 7)
    #expect(count.encoded.result == #"{"device":"dev-a","batches":3,"highestSeq":7}"#)
    #expect(try BatchCountBody(parsing: Self.bytes(count.encoded)) == count)
  }

  @Test(arguments: [
    #"{"batches":-1}"#, #"{"batches":"3"}"#, #"{"device":"d"}"#, "", #"{"batches":1e300}"#,
  ])
  func aBatchCountThatIsNotAWholeNumberIsRefused(body: String) {
    #expect(throws: AnswerBodyError("batch count")) {
      try BatchCountBody(parsing: Self.bytes(body))
    }
  }

  @Test func anErrorRoundTrips() throws {
    let error = ErrorBody(code: "rate_limited", message: "Too many requests; wait \"1\" s")
    #expect(
      error.encoded.result
        == #"{"error":{"code":"rate_limited","message":"Too many requests; wait \"1\" s"}}"#)
    #expect(try ErrorBody(parsing: Self.bytes(error.encoded)) == error)
    #expect(throws: AnswerBodyError("error")) {
      try ErrorBody(parsing: Self.bytes(#"{"error":{}}"#))
    }
    #expect(throws: AnswerBodyError("error")) { try ErrorBody(parsing: Self.bytes("<html>")) }
  }
}
