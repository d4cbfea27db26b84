/// Bearer tokens and one-time codes.
///
/// 32 random bytes from the system's secure generator, in hex, after a prefix that says what the
/// secret is (`llt_` a user's token, `lld_` a device's, `llp_` a
/// pairing code). The server keeps only their SHA-256 (``hash(_:)``).
public enum SecretToken {
  /// The prefix of a user's token (`lifelog serve user add`, `user token`).
  public static let userPrefix = "llt_"

  public static func make(prefix: String) -> String {
    var generator = SystemRandomNumberGenerator()
    var text = prefix
    for _ in 0..<4 {
      let hex = String(generator.next() as UInt64, radix: 16)
      text += String(repeating: "0", count: 16 - hex.count) + hex
    }
    return text
  }

  /// What the server keeps of a secret and looks it up by: the SHA-256 of its UTF-8, in hex.
  public static func hash(_ secret: String) -> String {
    ServerDigest.hexDigest(ArraySlice(secret.utf8))
  }
}

extension ServerStorage {
  /// Adds the user `name` with a new token (``SecretToken``), keeping only its hash.
  ///
  /// - Returns: the token, to be shown this once: the server cannot show it again.
  /// - Throws: `InputError` when the name is taken or malformed.
  public func addUser(named name: String) throws -> String {
    let token = SecretToken.make(prefix: SecretToken.userPrefix)
    _ = try addUser(name: name, tokenSHA256: SecretToken.hash(token))
    return token
  }

  /// Gives the user `name` a new token; the old one stops working at once.
  ///
  /// - Returns: the new token, to be shown this once.
  public func replaceToken(ofUser name: String) throws -> String {
    let token = SecretToken.make(prefix: SecretToken.userPrefix)
    try setToken(name: name, tokenSHA256: SecretToken.hash(token))
    return token
  }
}
