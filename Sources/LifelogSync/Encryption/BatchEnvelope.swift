import LifelogCore
import LifelogProtocol

/// How a remote stores batches and snapshots: as ``BatchCodec`` writes them, or sealed with the
/// remote's data key (docs/design.md §4.4, docs/sync-protocol.md).
///
/// A sealed file is one plaintext JSON header line, which is all a remote (or `lifelog serve`)
/// needs to file it, then the nonce and the XChaCha20-Poly1305 ciphertext of the plain batch. The
/// associated data is the remote id and the header line, so a sealed file opens only on its own
/// remote, under its own name, with its own header. A trailer line repeats the nonce: like a plain
/// batch's checksum trailer, it tells a server whether two files are the same without the key.
public enum BatchEnvelope: Sendable {
  case plain
  /// Sealed with `dataKey` for the remote `remoteID`.
  case sealed(remoteID: String, dataKey: [UInt8])

  /// What a file is stored as: a batch by device and seq, or a snapshot by name (the wire format's
  /// own, since a sealed header names it).
  public typealias Name = SealedHeader.Name

  public var isSealed: Bool {
    if case .sealed = self { true } else { false }
  }

  /// The bytes to store for a batch or snapshot that ``BatchCodec`` wrote.
  ///
  /// Sealing is deterministic (the nonce is a keyed hash of the header and the batch), so a batch
  /// sent again after an interrupted sync is the same bytes, which the remote takes as a no-op.
  public func seal(_ plain: [UInt8], name: Name) throws(BatchError) -> [UInt8] {
    guard case .sealed(let remoteID, let dataKey) = self else { return plain }
    guard dataKey.count == Sodium.keyBytes else {
      throw .damaged("the data key is not \(Sodium.keyBytes) bytes long")
    }
    let headerLine = SealedHeader.line(
      for: try BatchCodec.header(of: plain), name: name, changes: BatchEnvelope.rowCount(plain))
    let associated = BatchEnvelope.associated(remoteID: remoteID, header: headerLine)
    let nonce = Sodium.keyedHash(
      associated, plain, key: BatchEnvelope.nonceKey(dataKey), count: Sodium.nonceBytes)
    return headerLine + Sodium.seal(plain, associated: associated, nonce: nonce, key: dataKey)
      + [0x0A] + SealedHeader.trailer(nonce: nonce)
  }

  /// ``seal(_:name:)`` for the remote at `location`, which reports a failure as ``SyncError``.
  func seal(_ plain: [UInt8], at location: String, name: Name) throws(SyncError) -> [UInt8] {
    do {
      return try seal(plain, name: name)
    } catch {
      throw .remoteUnavailable(location, reason: "cannot seal \(name): \(error)")
    }
  }

  /// Whether `found`, a file already at the name of this device's batch `seq`, is `bytes`.
  ///
  /// When it is, the push is done; folder and WebDAV remotes decide alike. A file that does not open (cut short by a file-syncing tool, or by a server that died
  /// mid-write) is this device's own to replace: false.
  ///
  /// - Throws: ``SyncError/conflict(_:)`` naming `path` when it opens and differs: two logs share
  ///   a device id.
  func isPushed(
    _ bytes: [UInt8], as found: [UInt8], seq: Int, name: Name, path: String
  ) throws(SyncError) -> Bool {
    if found == bytes { return true }
    if (try? open(found, name: name)) != nil {
      throw .conflict(
        "The remote already holds a different batch \(seq) of this device at '\(path)'")
    }
    return false
  }

  /// Reads and verifies what ``seal(_:name:)`` stored under `name`.
  ///
  /// - Throws: ``BatchError/damaged(_:)`` when the file is damaged, was sealed for another remote
  ///   or name, fails authentication, or is plain on an encrypted remote (or sealed on a plain one).
  public func open(_ bytes: [UInt8], name: Name) throws(BatchError) -> Batch {
    guard case .sealed(let remoteID, let dataKey) = self else {
      do {
        return try BatchEnvelope.checked(BatchCodec.decode(bytes), name: name)
      } catch {
        if (try? SealedHeader(bytes)) != nil {
          throw .damaged("it is sealed, but this remote is not encrypted")
        }
        throw error
      }
    }
    guard dataKey.count == Sodium.keyBytes else {
      throw .damaged("the data key is not \(Sodium.keyBytes) bytes long")
    }
    guard let header = try? SealedHeader(bytes) else {
      throw .damaged(
        "it is not sealed, and this remote is encrypted (was it written by someone without the key?)"
      )
    }
    guard header.name == name else {
      throw .damaged("its sealed header names \(header.name), not this file")
    }
    let associated = BatchEnvelope.associated(
      remoteID: remoteID, header: Array(bytes[..<header.length]))
    guard let plain = Sodium.open(bytes[header.sealed], associated: associated, key: dataKey),
      Hex.encode(Array(bytes[header.sealed].prefix(Sodium.nonceBytes))) == header.nonce
    else {
      throw .damaged("it fails authentication (changed, or sealed for another name or remote)")
    }
    let batch = try BatchEnvelope.checked(BatchCodec.decode(plain), name: name)
    guard batch.created == header.batch.created, batch.covers == header.batch.covers,
      batch.changes.count == header.changes
    else { throw .damaged("its sealed header does not describe its contents") }
    return batch
  }

  /// Whether a decoded batch is the one `name` promises.
  private static func checked(_ batch: Batch, name: Name) throws(BatchError) -> Batch {
    switch name {
    case .batch(let device, let seq):
      guard batch.kind == .batch, batch.device == device, batch.seq == seq else {
        throw .damaged("its header names \(batch.kind.rawValue) \(batch.device)/\(batch.seq)")
      }
    case .snapshot:
      guard batch.kind == .snapshot else { throw .damaged("it is a batch, not a snapshot") }
    }
    return batch
  }

  /// The key of the nonce's hash: derived from the data key rather than the data key itself, so no
  /// key serves two primitives (BLAKE2b and XChaCha20-Poly1305).
  ///
  /// Only writers use it; readers take the nonce from the file.
  private static func nonceKey(_ dataKey: [UInt8]) -> [UInt8] {
    Sodium.keyedHash(Array("lifelog-nonce-key".utf8), [], key: dataKey, count: Sodium.keyBytes)
  }

  private static func associated(remoteID: String, header: [UInt8]) -> [UInt8] {
    Array("lifelog-sealed\n\(remoteID)\n".utf8) + header
  }

  /// The row count a plain batch's trailer states.
  private static func rowCount(_ plain: [UInt8]) -> Int {
    let body = plain.dropLast()
    guard let start = body.lastIndex(of: 0x0A).map({ $0 + 1 }),
      let trailer = try? JSONValue.parse(plain[start..<body.endIndex]),
      let count = trailer["changes"]?.integer
    else { return 0 }
    return Int(count)
  }
}
