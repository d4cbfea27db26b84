import CLifelogHTTPD
import LifelogCore

/// How the server keeps a share's passcode: slow to try, so whoever copies the store cannot run
/// through short passcodes offline (docs/security.md).
///
/// Stored as `pbkdf2-sha256$ITERATIONS$SALT$KEY` (hex): PBKDF2-HMAC-SHA256 under a random salt of
/// the SHA-256 (hex) of `lifelog-share\n<id>\n<passcode>`, which is what older servers kept. So a
/// store written before keeps working: ``wrap(legacy:)`` turns each old digest into the new form
/// without knowing the passcode (``SyncServer`` does that when it opens the store).
enum SharePasscode {
  static let prefix = "pbkdf2-sha256$"
  /// Rounds of PBKDF2 for a new passcode (about 50 ms on one core here).
  ///
  /// A stored value may say more or fewer (read back within ``iterationRange``).
  static let iterations = 100_000
  static let iterationRange = 1...10_000_000
  static let saltBytes = 16
  static let keyBytes = 32

  /// The value stored for a new passcode.
  static func hash(id: String, passcode: String) -> String {
    wrap(legacy: legacyDigest(id: id, passcode: passcode))
  }

  /// The SHA-256 (hex) of the share's id and the passcode: what was stored before, and what
  /// PBKDF2 now derives from.
  static func legacyDigest(id: String, passcode: String) -> String {
    ServerDigest.hexDigest(ArraySlice(("lifelog-share\n" + id + "\n" + passcode).utf8))
  }

  /// The stored form of an older server's digest.
  static func wrap(legacy digest: String, salt: [UInt8]? = nil) -> String {
    var generator = SystemRandomNumberGenerator()
    let salt = salt ?? (0..<saltBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let key = derive(Array(digest.utf8), salt: salt, iterations: iterations)
    return prefix + String(iterations) + "$" + UUIDText.hex(salt) + "$" + UUIDText.hex(key)
  }

  /// Whether a stored value is an older server's bare SHA-256.
  static func isLegacy(_ stored: String) -> Bool {
    !stored.hasPrefix(prefix)
  }

  /// Whether `passcode` is the one `stored` was made from (either form); false for a stored
  /// value that is neither.
  static func matches(_ stored: String, id: String, passcode: String) -> Bool {
    let digest = legacyDigest(id: id, passcode: passcode)
    guard !isLegacy(stored) else { return sameBytes(Array(stored.utf8), Array(digest.utf8)) }
    let parts = stored.dropFirst(prefix.count).split(
      separator: "$", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].utf8.count <= 8, let rounds = Int(parts[0]),
      iterationRange.contains(rounds), let salt = bytes(hex: parts[1]), salt.count <= 64,
      let key = bytes(hex: parts[2]), key.count == keyBytes
    else { return false }
    return sameBytes(derive(Array(digest.utf8), salt: salt, iterations: rounds), key)
  }

  /// PBKDF2-HMAC-SHA256: libcrypto's when it is there, else ``PBKDF2``'s (the same bytes).
  static func derive(_ password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
    var key = [UInt8](repeating: 0, count: keyBytes)
    let done = password.withUnsafeBufferPointer { password in
      salt.withUnsafeBufferPointer { salt in
        key.withUnsafeMutableBufferPointer { out in
          lh_pbkdf2_sha256(
            password.baseAddress, password.count, salt.baseAddress, salt.count,
            UInt32(iterations), out.baseAddress, out.count)
        }
      }
    }
    return done == 0
      ? key
      : PBKDF2.sha256(password: password, salt: salt, iterations: iterations, length: keyBytes)
  }

  /// Compares without stopping at the first difference.
  static func sameBytes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    guard left.count == right.count else { return false }
    return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }

  static func bytes(hex: Substring) -> [UInt8]? {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else {
        return nil
      }
      result.append(high << 4 | low)
      index += 2
    }
    return result
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case 0x30...0x39: digit - 0x30
    case 0x61...0x66: digit - 0x61 + 10
    default: nil
    }
  }
}

/// PBKDF2-HMAC-SHA256 (RFC 8018) on LifelogCore's SHA-256, for a machine without libcrypto.
enum PBKDF2 {
  static func sha256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
    var key = password.count > 64 ? SHA256.hash(password) : password
    key += [UInt8](repeating: 0, count: 64 - key.count)
    let inner = key.map { $0 ^ 0x36 }
    let outer = key.map { $0 ^ 0x5C }
    let hmac = { (message: [UInt8]) in SHA256.hash(outer + SHA256.hash(inner + message)) }
    var result: [UInt8] = []
    var block: UInt32 = 1
    while result.count < length {
      let counter: [UInt8] = [
        UInt8(block >> 24), UInt8(truncatingIfNeeded: block >> 16),
        UInt8(truncatingIfNeeded: block >> 8), UInt8(truncatingIfNeeded: block),
      ]
      var u = hmac(salt + counter)
      var t = u
      for _ in 1..<max(1, iterations) {
        u = hmac(u)
        for index in 0..<t.count { t[index] ^= u[index] }
      }
      result += t
      block += 1
    }
    return Array(result.prefix(length))
  }
}
