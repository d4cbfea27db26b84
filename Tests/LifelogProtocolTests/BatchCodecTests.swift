import LifelogCore
import LifelogProtocol
import Testing

@Suite struct BatchCodecTests {
  static let stamp = Stamp.make(milliseconds: 1_764_662_400_000, counter: 3, device: "abcdef012345")

  static let sample = Batch(
    device: "dev-1", seq: 7, created: 1_764_662_400_000,
    changes: [
      RowChange(
        entity: .activity, id: "act-1",
        values: [
          .text("Green Tea"), .text("meal"), .null, .text("3 times/day"), .flag(false),
          .flag(false),
        ],
        stamps: FieldStamps(count: 6, stamp: stamp)),
      RowChange(
        entity: .entry, id: "e-1",
        values: [
          .text("act-1"), .time(LoggedTime(instant: 1_764_662_400, offsetMinutes: -300)),
          .integer(2700),
          .text("line one\nline \"two\""), .real(0.5), .tags(["a", "b"]), .null, .flag(true),
        ],
        stamps: FieldStamps(count: 8, stamp: stamp)),
      RowChange(
        entity: .setting, id: "mealGapHours", values: [.text("2.5")],
        stamps: FieldStamps(count: 1, stamp: "")),
    ])

  @Test func aBatchRoundTripsExactly() throws {
    let bytes = BatchCodec.encode(BatchCodecTests.sample)
    #expect(try BatchCodec.decode(bytes) == BatchCodecTests.sample)
    #expect(BatchCodec.encode(try BatchCodec.decode(bytes)) == bytes)
  }

  @Test func aSnapshotKeepsTheVectorItCovers() throws {
    var snapshot = BatchCodecTests.sample
    snapshot.kind = .snapshot
    snapshot.seq = 0
    snapshot.covers = VersionVector(["dev-1": 7, "dev-2": 3])
    #expect(try BatchCodec.decode(BatchCodec.encode(snapshot)) == snapshot)
  }

  /// A stamp of any width but 28 (a 13th digit carried in by a poisoned clock) is refused where
  /// batches are decoded, so it never reaches a merge.
  @Test(arguments: [
    "1000000000000" + "0000abcdef012345", "fffffffffff0000abcdef012345",
    "FFFFFFFFFFFF0000ABCDEF012345",
  ])
  func aStampOfAnyOtherWidthOrCaseIsRefused(stamp: String) {
    var batch = BatchCodecTests.sample
    batch.changes[0].stamps = FieldStamps(count: 6, stamp: stamp)
    #expect(throws: BatchError.self) { try BatchCodec.decode(BatchCodec.encode(batch)) }
  }

  @Test func everyTruncationIsDetected() {
    let bytes = BatchCodec.encode(BatchCodecTests.sample)
    for length in stride(from: 0, to: bytes.count, by: 7) {
      #expect(throws: BatchError.self, "length \(length)") {
        try BatchCodec.decode(Array(bytes.prefix(length)))
      }
    }
  }

  @Test func aFlippedByteIsDetected() {
    let bytes = BatchCodec.encode(BatchCodecTests.sample)
    for position in stride(from: 0, to: bytes.count - 80, by: 13) {
      var damaged = bytes
      damaged[position] ^= 0x01
      #expect(throws: BatchError.self, "position \(position)") { try BatchCodec.decode(damaged) }
    }
  }

  @Test func aNewerFormatIsRefusedWithUpgradeAdvice() {
    var text = String(decoding: BatchCodec.encode(BatchCodecTests.sample), as: UTF8.self)
    text = text.replacingOccurrences(of: "\"format\":1", with: "\"format\":9")
    let body = text.split(separator: "\n").dropLast().map { $0 + "\n" }.joined()
    let rebuilt =
      body + "{\"end\":true,\"changes\":3,\"sha256\":\"\(SHA256.hexDigest(Array(body.utf8)))\"}\n"
    #expect(throws: BatchError.newerFormat(9)) { try BatchCodec.decode(Array(rebuilt.utf8)) }
  }

  @Test func sha256IsRightAtEveryPaddingBoundary() {
    let expected: [(Int, String)] = [
      (55, "8af594de0e003fdee5c8bb088216c824349b4137070f559574f4a4bddd27b714"),
      (56, "db81bc2bfd43620591df192139062da77d4c376f1888ea3d2190bd07c8d901f9"),
      (63, "bd535b38bf0d0d1a09d370b7e34b2696cea3767801a45d5611a4aaa6954e8527"),
      (64, "292be91abe8c0909fe3d26575af5755eee74d23816dc68c3ba41765136967654"),
      (65, "ba65aedf7884642499a59ae124894611d986cf429e69f569488048af3a99e25a"),
      (119, "d367ab298e74477421127b0b448667c37c006c636f5738f081c39388756e5fad"),
      (120, "be7beb9c82089eb08da8fe6eb30c13b9d56869014e228a8c3eb0fdfe832efab2"),
      (128, "cb5311e1d7aa8e11d6af7081f3ffc3e4efa008c7483a1a791fe170bf37546ba7"),
      (4097, "cccd1be35d39d5af1686e69fcdcab1831ffbecbd9e95c9205326ebfb16dbe2c1"),
    ]
    for (length, digest) in expected {
      let message = (0..<length).map { UInt8(($0 * 7) % 251) }
      #expect(SHA256.hexDigest(message) == digest, "length \(length)")
    }
  }

  @Test func sha256MatchesKnownDigests() {
    #expect(
      SHA256.hexDigest([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hexDigest(Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hexDigest(Array(String(repeating: "a", count: 1_000).utf8))
        == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
