import LifelogCore
import LifelogProtocol

@testable import LifelogSync

/// The sealed envelope (``SealedHeader``, ``BatchEnvelope``): the input read as a stored file by a
/// plain and by an encrypted remote, and, when it is a plain batch, sealed and opened again.
///
/// A random input never passes authentication, so the round trip is what takes the fuzzer
/// through the checks after it (the sealed header against the batch inside).
enum EnvelopeFuzz {
  /// An encrypted remote's envelope with a fixed key (libsodium loaded first, as a sync does).
  static let sealed: BatchEnvelope = {
    do { try Sodium.load() } catch { fatalError("\(error)") }
    return .sealed(remoteID: "fuzz-remote", dataKey: [UInt8](repeating: 7, count: Sodium.keyBytes))
  }()

  static func run(_ bytes: [UInt8]) {
    let header = try? SealedHeader(bytes)
    let name = header?.name ?? .batch(device: "fuzz-device", seq: 1)
    _ = try? BatchEnvelope.plain.open(bytes, name: name)
    _ = try? sealed.open(bytes, name: name)
    let plain = BatchFuzz.withTrailer(bytes)
    guard let batch = try? BatchCodec.header(of: plain) else { return }
    let ownName: BatchEnvelope.Name =
      batch.kind == .batch
      ? .batch(device: batch.device, seq: batch.seq) : .snapshot("fuzz-snapshot")
    guard let stored = try? sealed.seal(plain, name: ownName) else { return }
    _ = try? SealedHeader(stored)
    _ = try? sealed.open(stored, name: ownName)
  }
}
