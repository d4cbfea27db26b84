import LifelogCore

/// The plaintext header line of a sealed batch or snapshot: what a remote may know without the key.
///
/// A sealed file (docs/sync-protocol.md, docs/security.md) is this header line, then the nonce and
/// the ciphertext, a newline, and a trailer line that repeats the nonce. This type writes and reads
/// the lines around the ciphertext; the sealing itself (libsodium) is `BatchEnvelope`'s, in
/// LifelogSync, so the server reads sealed files without linking any cryptography.
public struct SealedHeader: Sendable {
  /// What a file is stored as: a batch by device and seq, or a snapshot by name.
  public enum Name: Equatable, Sendable {
    case batch(device: String, seq: Int)
    case snapshot(String)
  }

  /// The value of a sealed header's `sealed` field.
  public static let cipher = "xchacha20poly1305-ietf"

  /// Kind, device, seq, created and (for a snapshot) covers; no changes.
  public var batch: Batch
  public var name: Name
  /// The row count of the sealed batch.
  public var changes: Int
  /// The header line's length, newline included.
  public var length: Int
  /// Where the nonce, ciphertext and tag lie.
  public var sealed: Range<Int>
  /// The nonce the trailer line states, in hex.
  public var nonce: String

  /// The header line of `batch` (its header fields only) sealed under `name`, newline included.
  ///
  /// The line is also part of the associated data, so these bytes are the format: a change here
  /// makes every stored sealed file fail authentication.
  public static func line(for batch: Batch, name: Name, changes: Int) -> [UInt8] {
    var header = JSONObjectWriter()
    header.add("lifelog", batch.kind.rawValue)
    header.add("format", BatchCodec.format)
    header.add("sealed", cipher)
    header.add("device", batch.device)
    header.add("seq", batch.seq)
    header.addRaw("created", String(batch.created))
    if case .snapshot(let snapshotName) = name {
      header.add("name", snapshotName)
      header.addRaw("covers", batch.covers.json)
    }
    header.add("changes", changes)
    return Array((header.result + "\n").utf8)
  }

  /// The trailer line that ends a sealed file: the nonce again, in hex, newline included.
  public static func trailer(nonce: [UInt8]) -> [UInt8] {
    var trailer = JSONObjectWriter()
    trailer.add("end", true)
    trailer.add("nonce", UUIDText.hex(nonce))
    return Array((trailer.result + "\n").utf8)
  }

  /// Reads the header of a sealed file; throws when `bytes` is not one.
  public init(_ bytes: [UInt8]) throws(BatchError) {
    guard let end = bytes.firstIndex(of: 0x0A) else { throw .damaged("truncated: no header line") }
    guard let json = try? JSONValue.parse(bytes[..<end]), json["sealed"] != nil else {
      throw .damaged("it is not sealed")
    }
    guard json["sealed"]?.string == SealedHeader.cipher else {
      throw .damaged("it is sealed with an unknown cipher")
    }
    batch = try BatchCodec.header(of: bytes)
    guard let changes = json["changes"]?.integer, changes >= 0 else {
      throw .damaged("its sealed header lacks changes")
    }
    self.changes = Int(changes)
    switch batch.kind {
    case .batch: name = .batch(device: batch.device, seq: batch.seq)
    case .snapshot:
      guard let snapshotName = json["name"]?.string else {
        throw .damaged("its sealed header lacks the snapshot's name")
      }
      name = .snapshot(snapshotName)
    }
    length = end + 1
    let body = bytes.dropLast()
    guard bytes.last == 0x0A, let trailerStart = body.lastIndex(of: 0x0A).map({ $0 + 1 }),
      trailerStart - 1 > length,
      let trailer = try? JSONValue.parse(bytes[trailerStart..<body.endIndex]),
      trailer["end"]?.bool == true,
      let nonce = trailer["nonce"]?.string
    else { throw .damaged("truncated: no trailer line") }
    sealed = length..<(trailerStart - 1)
    self.nonce = nonce
  }
}

extension SealedHeader.Name: CustomStringConvertible {
  public var description: String {
    switch self {
    case .batch(let device, let seq): "batch \(device)/\(seq)"
    case .snapshot(let name): "snapshot \(name)"
    }
  }
}
