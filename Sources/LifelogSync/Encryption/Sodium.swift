import CLifelogSodium
import LifelogCore

/// The libsodium primitives end-to-end encryption is built from (docs/security.md): random bytes,
/// Argon2id, XChaCha20-Poly1305 and keyed BLAKE2b.
///
/// libsodium is loaded the first time ``load()`` runs, never at start-up: only adding or syncing an
/// encrypted remote pays for it.
public enum Sodium {
  public static let keyBytes = Int(LIFELOG_SODIUM_KEY_BYTES)
  public static let nonceBytes = Int(LIFELOG_SODIUM_NONCE_BYTES)
  public static let tagBytes = Int(LIFELOG_SODIUM_TAG_BYTES)
  public static let saltBytes = Int(LIFELOG_SODIUM_SALT_BYTES)

  /// Loads libsodium; throws ``SyncError/encryptionUnavailable(_:)`` naming the Debian package when
  /// it is missing.
  public static func load() throws(SyncError) {
    var error = [CChar](repeating: 0, count: 512)
    guard lifelog_sodium_load(&error, error.count) == 0 else {
      throw .encryptionUnavailable(
        String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
  }

  /// Checks a data key kept in the log before anything uses it: libsodium reads exactly
  /// ``keyBytes`` from the pointer it is given, so a shorter key (a damaged log, a row edited by
  /// hand) would be read past its end.
  ///
  /// - Throws: ``SyncError/encryptionMismatch(_:reason:)`` (exit 78) naming the remote.
  public static func checkDataKey(_ key: [UInt8], remote location: String) throws(SyncError) {
    guard key.count == keyBytes else {
      throw .encryptionMismatch(
        location,
        reason:
          "has a data key in this log that is \(key.count) bytes long, not \(keyBytes): the log is damaged. "
          + "Nothing was read or written; 'lifelog remote remove' the remote and join it again with "
          + "'lifelog remote recover' (or 'lifelog remote add' and the passphrase)")
    }
  }

  /// `count` bytes from the system's secure generator.
  static func random(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    lifelog_sodium_random(&bytes, count)
    return bytes
  }

  /// A 32-byte key from a passphrase: Argon2id v1.3 with these limits.
  static func argon2id(
    _ passphrase: [UInt8], salt: [UInt8], limits: Argon2Limits
  ) throws(SyncError) -> [UInt8] {
    var key = [UInt8](repeating: 0, count: keyBytes)
    let status = passphrase.withUnsafeBufferPointer { text in
      text.withMemoryRebound(to: CChar.self) {
        lifelog_sodium_argon2id(
          &key, keyBytes, $0.baseAddress, $0.count, salt, limits.opslimit, limits.memlimit)
      }
    }
    guard status == 0 else {
      throw .encryptionUnavailable(
        "Argon2id could not run (it needs \(limits.memlimit >> 20) MiB of memory)")
    }
    return key
  }

  /// `nonce` followed by the XChaCha20-Poly1305 ciphertext and tag of `message`.
  static func seal(_ message: [UInt8], associated: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]
  {
    var sealed = [UInt8](repeating: 0, count: nonce.count + message.count + tagBytes)
    sealed.withUnsafeMutableBufferPointer { output in
      // `sealed` holds at least the tag, so it has an address.
      guard let start = output.baseAddress else { preconditionFailure("no buffer to seal into") }
      for index in 0..<nonce.count { output[index] = nonce[index] }
      lifelog_sodium_seal(
        start + nonce.count, message, message.count, associated, associated.count, nonce, key)
    }
    return sealed
  }

  /// The message inside what ``seal(_:associated:nonce:key:)`` made, or nil when it fails
  /// authentication: a wrong key, other associated data, or a changed byte.
  static func open(_ sealed: ArraySlice<UInt8>, associated: [UInt8], key: [UInt8]) -> [UInt8]? {
    guard sealed.count >= nonceBytes + tagBytes, key.count == keyBytes else { return nil }
    var message = [UInt8](repeating: 0, count: sealed.count - nonceBytes - tagBytes)
    let status = sealed.withUnsafeBufferPointer { input in
      // Checked above to hold a nonce and a tag, so it has an address; without one, it fails.
      guard let start = input.baseAddress else { return Int32(-1) }
      return lifelog_sodium_open(
        &message, start + nonceBytes, input.count - nonceBytes, associated, associated.count,
        start, key)
    }
    return status == 0 ? message : nil
  }

  /// Keyed BLAKE2b of `first` then `second`, `count` bytes long.
  static func keyedHash(_ first: [UInt8], _ second: [UInt8], key: [UInt8], count: Int) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: count)
    lifelog_sodium_keyed_hash(&output, count, first, first.count, second, second.count, key)
    return output
  }

  /// Overwrites a secret held in memory.
  static func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { lifelog_sodium_memzero($0.baseAddress, $0.count) }
  }
}

/// The cost of Argon2id, kept beside the wrapped key so any later lifelog derives the same key.
public struct Argon2Limits: Equatable, Sendable {
  /// The most a key envelope may ask for.
  ///
  /// The remote stores the limits, so a hostile one could otherwise make joining run for hours or
  /// allocate gigabytes; lifelog writes 2 passes over 64 MiB (libsodium's interactive limits), and
  /// these leave room for "sensitive" (4, 1 GiB).
  static let maximumOpslimit: Int64 = 16
  static let maximumMemlimit: Int64 = 1 << 30

  public var opslimit: UInt64
  public var memlimit: Int

  /// libsodium's "interactive" limits (2 passes over 64 MiB, about 0.1 s): what new keys use, so
  /// joining stays well under a second on a small machine.
  public static var interactive: Argon2Limits {
    Argon2Limits(
      opslimit: lifelog_sodium_opslimit_interactive(),
      memlimit: lifelog_sodium_memlimit_interactive())
  }
}

/// Hex text for keys, salts and nonces in JSON.
enum Hex {
  static func encode(_ bytes: [UInt8]) -> String { UUIDText.hex(bytes) }

  /// The bytes of hex text, ignoring `-` and whitespace (a recovery key is written in groups); nil
  /// when anything else is there.
  static func decode(_ text: String) -> [UInt8]? { HexText.bytes(text) }
}
