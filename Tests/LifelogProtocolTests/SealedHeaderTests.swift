import Foundation
import LifelogCore
import LifelogProtocol
import Testing

/// ``SealedHeader``: the lines around a sealed file's ciphertext, which the server reads without
/// the key.
///
/// The ciphertext here is stand-in bytes: sealing itself is LifelogSync's
/// (BatchEnvelopeTests), the format of what surrounds it is tested here.
@Suite struct SealedHeaderTests {
  static let nonce: [UInt8] = Array(0..<24)
  /// Stand-in for nonce + ciphertext + tag, holding a newline as real ciphertext may.
  static let ciphertext: [UInt8] = nonce + [0x0A, 0xFF, 0x00, 0x7B]

  static func sealedFile(_ batch: Batch, name: SealedHeader.Name, changes: Int) -> [UInt8] {
    SealedHeader.line(for: batch, name: name, changes: changes) + ciphertext + [0x0A]
      + SealedHeader.trailer(nonce: nonce)
  }

  @Test func aSealedBatchHeaderRoundTrips() throws {
    let batch = Batch(device: "dev-1", seq: 7, created: 1_764_662_400_000, changes: [])
    let bytes = Self.sealedFile(batch, name: .batch(device: "dev-1", seq: 7), changes: 3)
    let header = try SealedHeader(bytes)
    #expect(header.batch == batch)
    #expect(header.name == .batch(device: "dev-1", seq: 7))
    #expect(header.changes == 3)
    #expect(Array(bytes[header.sealed]) == Self.ciphertext)
    #expect(header.nonce == UUIDText.hex(Self.nonce))
    #expect(header.length == SealedHeader.line(for: batch, name: header.name, changes: 3).count)
  }

  @Test func aSealedSnapshotHeaderKeepsItsNameAndCovers() throws {
    let snapshot = Batch(
      kind: .snapshot, device: "dev-2", seq: 0, created: 5,
      covers: VersionVector(["dev-1": 7, "dev-2": 2]), changes: [])
    let bytes = Self.sealedFile(snapshot, name: .snapshot("17-dev-2"), changes: 0)
    let header = try SealedHeader(bytes)
    #expect(header.batch == snapshot)
    #expect(header.name == .snapshot("17-dev-2"))
    #expect(Array(bytes[header.sealed]) == Self.ciphertext)
  }

  @Test func theHeaderLineIsTheDocumentedOne() {
    let batch = Batch(device: "d", seq: 1, created: 2, changes: [])
    #expect(
      String(
        decoding: SealedHeader.line(for: batch, name: .batch(device: "d", seq: 1), changes: 4),
        as: UTF8.self)
        == #"{"lifelog":"batch","format":1,"sealed":"xchacha20poly1305-ietf","device":"d","seq":1,"#
        + #""created":2,"changes":4}"# + "\n")
  }

  @Test func aPlainBatchATruncatedFileAndAnUnknownCipherAreNotSealedHeaders() {
    let batch = Batch(device: "dev-1", seq: 1, created: 2, changes: [])
    #expect(throws: BatchError.self) { try SealedHeader(BatchCodec.encode(batch)) }
    let sealed = Self.sealedFile(batch, name: .batch(device: "dev-1", seq: 1), changes: 0)
    for length in [0, 10, sealed.count - 1] {
      #expect(throws: BatchError.self) { try SealedHeader(Array(sealed.prefix(length))) }
    }
    let other = Array(
      String(decoding: sealed, as: UTF8.self)
        .replacingOccurrences(of: SealedHeader.cipher, with: "rot13").utf8)
    #expect(throws: BatchError.damaged("it is sealed with an unknown cipher")) {
      try SealedHeader(other)
    }
  }
}
