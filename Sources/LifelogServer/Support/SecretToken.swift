/// Bearer tokens and one-time codes.
///
/// 32 random bytes from the system's secure generator, in hex, after a prefix that says what the
/// secret is (`llt_` a user's token, `lld_` a device's, `llp_` a
/// pairing code). The server keeps only their SHA-256 (``ServerDigest``).
public enum SecretToken {
  public static func make(prefix: String) -> String {
    var generator = SystemRandomNumberGenerator()
    var text = prefix
    for _ in 0..<4 {
      let hex = String(generator.next() as UInt64, radix: 16)
      text += String(repeating: "0", count: 16 - hex.count) + hex
    }
    return text
  }
}
