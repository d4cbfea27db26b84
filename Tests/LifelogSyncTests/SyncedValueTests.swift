import LifelogCore
import LifelogProtocol
import LifelogSync
import LifelogTestSupport
import Testing

/// Values a remote sends are checked where they are decoded (docs/sync-protocol.md §3): device ids
/// in headers and covers, and entry values out of range, which arrive as absent.
@Suite struct SyncedValueTests {
  static let stamp = Stamp.make(milliseconds: 1_764_662_400_000, counter: 1, device: "abcdef012345")

  /// A batch file written by hand: `header`, one line per row, and a correct trailer.
  static func file(header: String, rows: [String]) -> [UInt8] {
    var bytes = Array((([header] + rows).joined(separator: "\n") + "\n").utf8)
    bytes += Array(
      "{\"end\":true,\"changes\":\(rows.count),\"sha256\":\"\(SHA256.hexDigest(bytes))\"}\n".utf8)
    return bytes
  }

  static func entryRow(duration: String, quantity: String, tags: String = "[\"ok\"]") -> String {
    let s = "\"\(stamp)\""
    return """
      {"entity":"entry","id":"e-1","fields":{"activity":["act-1",\(s)],"at":["2026-12-01T08:00:00+01:00",\(s)],\
      "duration":[\(duration),\(s)],"note":[null,\(s)],"quantity":[\(quantity),\(s)],"tags":[\(tags),\(s)],\
      "source":[null,\(s)],"deleted":[false,\(s)]}}
      """
  }

  static let batchHeader =
    #"{"lifelog":"batch","format":1,"device":"dev-1","seq":1,"created":1764662400000}"#

  static func decodedEntry(
    duration: String, quantity: String, tags: String = "[\"ok\"]"
  ) throws -> RowChange {
    let bytes = file(
      header: batchHeader, rows: [entryRow(duration: duration, quantity: quantity, tags: tags)])
    return try #require(try BatchCodec.decode(bytes).changes.first)
  }

  @Test(arguments: ["a_b", "", "dev/1", "dev 1", "../x", String(repeating: "a", count: 129)])
  func aSnapshotWhoseCoversNameSomethingThatIsNotADeviceIdIsRefused(key: String) {
    let header =
      #"{"lifelog":"snapshot","format":1,"device":"dev-1","seq":0,"created":1764662400000,"covers":{"dev-1":3,"#
      + "\"\(key)\":5}}"
    #expect(throws: BatchError.self) { try BatchCodec.decode(Self.file(header: header, rows: [])) }
    #expect(throws: BatchError.self) {
      try BatchCodec.header(of: Self.file(header: header, rows: []))
    }
  }

  @Test func aHeaderWhoseDeviceIsNotADeviceIdIsRefused() {
    let header = #"{"lifelog":"batch","format":1,"device":"a_b","seq":1,"created":1764662400000}"#
    #expect(throws: BatchError.self) { try BatchCodec.decode(Self.file(header: header, rows: [])) }
  }

  @Test func aSnapshotCoveringDeviceIdsOfLettersDigitsAndDashesIsRead() throws {
    let id = String(repeating: "A9-", count: 42) + "zz"
    let header =
      #"{"lifelog":"snapshot","format":1,"device":"dev-1","seq":0,"created":1764662400000,"covers":{"#
      + "\"\(id)\":5}}"
    #expect(try BatchCodec.decode(Self.file(header: header, rows: [])).covers[id] == 5)
  }

  @Test func valuesInRangeArriveAsSent() throws {
    let change = try Self.decodedEntry(
      duration: "2678400", quantity: "1000000000", tags: "[\"a\",\"b\"]")
    #expect(change.values[2] == .integer(31 * 86_400))
    #expect(change.values[4] == .real(1_000_000_000))
    #expect(change.values[5] == .tags(["a", "b"]))
  }

  @Test(arguments: ["-1", "2678401", "9000000000000000", "1e20", "2.5"])
  func aDurationOutOfRangeArrivesAsAbsentAndTheRowStillMerges(duration: String) throws {
    let change = try Self.decodedEntry(duration: duration, quantity: "1")
    #expect(change.values[2] == .null)
    #expect(change.stamps[2] == Self.stamp, "the field still merges by its stamp")
    #expect(change.values[4] == .real(1))
  }

  @Test(arguments: ["-0.5", "1000000001", "1e300"])
  func aQuantityOutOfRangeArrivesAsAbsent(quantity: String) throws {
    let change = try Self.decodedEntry(duration: "60", quantity: quantity)
    #expect(change.values[4] == .null)
    #expect(change.values[2] == .integer(60))
  }

  @Test func tagsThatBreakTheTagRulesAreLeftOut() throws {
    let long = String(repeating: "x", count: 65)
    let change = try Self.decodedEntry(
      duration: "60", quantity: "1",
      tags: "[\"ok\",\"two words\",\"a,b\",\"\",\"\(long)\",\"fine\"]")
    #expect(change.values[5] == .tags(["ok", "fine"]))
  }

  @Test func aValueOfTheWrongTypeStillMakesTheFileDamaged() {
    let bytes = Self.file(
      header: Self.batchHeader, rows: [Self.entryRow(duration: "\"1h\"", quantity: "1")])
    #expect(throws: BatchError.self) { try BatchCodec.decode(bytes) }
  }

  @Test(arguments: [0, 1, 16, 31, 33, 64])
  func aDataKeyOfTheWrongLengthIsRefusedBeforeLibsodiumReadsIt(length: Int) {
    let key = [UInt8](repeating: 7, count: length)
    #expect(throws: SyncError.self) { try Sodium.checkDataKey(key, remote: "/tmp/remote") }
    let envelope = BatchEnvelope.sealed(remoteID: "r-1", dataKey: key)
    #expect(throws: BatchError.self) {
      try envelope.seal(
        SampleBatches.batch(device: "dev-1", seq: 1), name: .batch(device: "dev-1", seq: 1))
    }
  }

  @Test func aKeyEnvelopeWhoseWrappedKeysAreNotKeySizedIsRefused() throws {
    let keys = try RemoteKeys.create(
      remoteID: "r-1", passphrase: Array("unit test passphrase".utf8)
    ).keys
    #expect(try RemoteKeys(bytes: keys.bytes) == keys)
    var shortened = keys
    shortened.byPassphrase.removeLast()
    var lengthened = keys
    lengthened.byRecoveryKey.append(0)
    var checkCut = keys
    checkCut.check.removeLast()
    for damaged in [shortened, lengthened, checkCut] {
      #expect(
        throws: BatchError.damaged(
          "the key envelope's wrapped keys are not 72 bytes long (or its check does not fit its remote id)"
        )
      ) {
        try RemoteKeys(bytes: damaged.bytes)
      }
    }
  }
}
