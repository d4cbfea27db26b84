/// A verified batch waiting to be stored.
public struct IncomingBatch: Sendable {
  public var user: Int64
  public var device: String
  public var seq: Int
  public var bytes: [UInt8]
  /// How many row changes it holds.
  public var rows: Int

  /// A batch whose bytes `BatchCodec.verify` has verified (of a sealed one, its header read).
  public init(user: Int64, device: String, seq: Int, bytes: [UInt8], rows: Int) {
    self.user = user
    self.device = device
    self.seq = seq
    self.bytes = bytes
    self.rows = rows
  }

  /// What tells two batches apart: the trailer line.
  ///
  /// It holds the SHA-256 of everything before
  /// it (checked when the batch was verified), so two verified batches are the same bytes exactly
  /// when their trailers are, without hashing the batch a second time.
  public var trailer: String {
    let body = bytes.dropLast()
    let start = body.lastIndex(of: 0x0A).map { $0 + 1 } ?? body.startIndex
    return String(decoding: bytes[start...], as: UTF8.self)
  }
}
