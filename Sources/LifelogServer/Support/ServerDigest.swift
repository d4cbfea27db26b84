import CLifelogHTTPD
import LifelogCore

/// SHA-256 for the server's checksums of pushed batches and snapshots.
///
/// Every push is hashed whole to check its trailer (``BatchCodec/verify(_:hexDigest:)``): about
/// 21 KB for the load test's 50-row batch, and the portable Swift code (``SHA256``, about
/// 140 MB/s) took a fifth of the server's CPU under the 50-client load (`perf`,
/// docs/benchmarks.md). OpenSSL's libcrypto, loaded with `dlopen` when it is installed (Debian's
/// libssl3, which libcurl already needs), uses the CPU's SHA extensions where it has them. Without
/// it the Swift code hashes, with the same answer.
enum ServerDigest {
  /// The digest of `bytes` as 64 lower-case hex digits.
  static func hexDigest(_ bytes: ArraySlice<UInt8>) -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    let hashed = bytes.withUnsafeBufferPointer { message in
      digest.withUnsafeMutableBufferPointer { out in
        lh_sha256(message.baseAddress, message.count, out.baseAddress)
      }
    }
    guard hashed == 0 else { return SHA256.hexDigest(Array(bytes)) }
    return UUIDText.hex(digest)
  }

  /// Whether ``hexDigest(_:)`` hashes with libcrypto (for tests and the bench).
  static var usesLibcrypto: Bool { lh_sha256_available() != 0 }
}
