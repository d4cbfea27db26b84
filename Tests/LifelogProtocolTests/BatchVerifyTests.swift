import LifelogCore
import LifelogProtocol
import Testing

/// ``BatchCodec/verify(_:)``, what `lifelog serve` checks of a pushed batch: the same answer as
/// ``BatchCodec/decode(_:)`` for every file, except one whose rows are malformed under a
/// checksum its writer computed.
@Suite struct BatchVerifyTests {
  static let bytes = BatchCodec.encode(BatchCodecTests.sample)

  @Test func aGoodFileGivesDecodesHeaderAndRowCount() throws {
    let (header, rows) = try BatchCodec.verify(Self.bytes)
    var expected = BatchCodecTests.sample
    expected.changes = []
    #expect(header == expected)
    #expect(rows == 3)
    var snapshot = BatchCodecTests.sample
    snapshot.kind = .snapshot
    snapshot.seq = 0
    snapshot.covers = VersionVector(["dev-1": 7, "dev-2": 3])
    #expect(try BatchCodec.verify(BatchCodec.encode(snapshot)).header.covers == snapshot.covers)
  }

  /// Every cut and every flipped byte is refused with the error decode gives (the row lines are
  /// under the checksum, so no damage gets as far as them).
  @Test func everyDamageIsRefusedAsDecodeRefusesIt() {
    var damaged: [[UInt8]] = stride(from: 0, to: Self.bytes.count, by: 3).map {
      Array(Self.bytes.prefix($0))
    }
    for position in 0..<Self.bytes.count {
      var flipped = Self.bytes
      flipped[position] ^= 0x01
      damaged.append(flipped)
    }
    for bytes in damaged {
      #expect(throws: decodeError(bytes)) { try BatchCodec.verify(bytes) }
    }
  }

  @Test func aNewerFormatAndAMiscountAreRefusedAsDecodeRefusesThem() {
    let header = "{\"lifelog\":\"batch\",\"format\":9,\"device\":\"d\",\"seq\":1,\"created\":1}\n"
    let newer = Self.framed(header + "{}\n", count: 1)
    #expect(throws: BatchError.newerFormat(9)) { try BatchCodec.verify(newer) }
    let current = header.replacing("\"format\":9", with: "\"format\":1")
    let miscounted = Self.framed(current + "{}\n{}\n", count: 3)
    #expect(throws: decodeError(miscounted)) { try BatchCodec.verify(miscounted) }
    #expect(throws: decodeError(Self.framed("", count: 0))) {
      try BatchCodec.verify(Self.framed("", count: 0))
    }
  }

  /// A row that does not read, under the right checksum, is what only its writer can make: the
  /// server stores it (as it stores sealed rows it cannot read) and every client that pulls it
  /// refuses the file as damaged.
  @Test func malformedRowsUnderTheirChecksumPassVerifyOnly() throws {
    let header = "{\"lifelog\":\"batch\",\"format\":1,\"device\":\"d\",\"seq\":1,\"created\":1}\n"
    let bytes = Self.framed(header + "{\"entity\":\"nonsense\"}\nnot json\n", count: 2)
    #expect(throws: BatchError.self) { try BatchCodec.decode(bytes) }
    let (verified, rows) = try BatchCodec.verify(bytes)
    #expect(verified.device == "d" && verified.seq == 1 && rows == 2)
  }

  /// `body` and a trailer counting `count` rows with the right SHA-256.
  static func framed(_ body: String, count: Int) -> [UInt8] {
    let digest = SHA256.hexDigest(Array(body.utf8))
    return Array((body + "{\"end\":true,\"changes\":\(count),\"sha256\":\"\(digest)\"}\n").utf8)
  }

  private func decodeError(_ bytes: [UInt8]) -> BatchError {
    do {
      _ = try BatchCodec.decode(bytes)
      Issue.record("decode accepted damaged bytes")
      return .damaged("accepted")
    } catch {
      return error
    }
  }
}
