import LifelogCore
import LifelogProtocol

@testable import LifelogSync

/// The batch codec (``BatchCodec``): the input as a whole file, then with a valid trailer added,
/// each decoded and verified.
///
/// A random input almost never carries the SHA-256 of itself, so the second call appends the
/// trailer the input would need: that is what lets the fuzzer reach the header and row decoding.
enum BatchFuzz {
  static func run(_ bytes: [UInt8]) {
    _ = try? BatchCodec.header(of: bytes)
    checkVerify(bytes)
    checkVerify(withTrailer(bytes))
  }

  /// Decodes `bytes` and verifies them (what the server does): `verify` must accept whatever
  /// `decode` accepts, with the same header and row count, and refuse with the same error whatever
  /// it refuses, except a file refused for a malformed row, which `verify` does not read.
  static func checkVerify(_ bytes: [UInt8]) {
    let decoded = Result<Batch, BatchError> { () throws(BatchError) in
      try BatchCodec.decode(bytes)
    }
    let verified = Result<(header: Batch, rows: Int), BatchError> { () throws(BatchError) in
      try BatchCodec.verify(bytes)
    }
    switch (decoded, verified) {
    case (.success(let batch), .success(let verified)):
      var header = batch
      header.changes = []
      precondition(verified.header == header && verified.rows == batch.changes.count)
    case (.success, .failure(let error)):
      preconditionFailure("verify refused what decode accepts: \(error)")
    case (.failure(let decodeError), .failure(let verifyError)):
      precondition(decodeError == verifyError, "\(decodeError) against \(verifyError)")
    case (.failure, .success):
      break
    }
  }

  /// `bytes` as the lines of a batch, followed by the trailer that makes its checksum and row
  /// count right.
  static func withTrailer(_ bytes: [UInt8]) -> [UInt8] {
    var body = bytes
    if body.last != 0x0A { body.append(0x0A) }
    let rows = max(0, body.split(separator: 0x0A).count - 1)
    var trailer = JSONObjectWriter()
    trailer.add("end", true)
    trailer.add("changes", rows)
    trailer.add("sha256", SHA256.hexDigest(body))
    return body + Array((trailer.result + "\n").utf8)
  }
}
