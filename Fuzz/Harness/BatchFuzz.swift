import LifelogCore
import LifelogProtocol

@testable import LifelogSync

/// The batch codec (``BatchCodec``): the input as a whole file, then with a valid trailer added.
///
/// A random input almost never carries the SHA-256 of itself, so the second call appends the
/// trailer the input would need: that is what lets the fuzzer reach the header and row decoding.
enum BatchFuzz {
  static func run(_ bytes: [UInt8]) {
    _ = try? BatchCodec.header(of: bytes)
    _ = try? BatchCodec.decode(bytes)
    _ = try? BatchCodec.decode(withTrailer(bytes))
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
