/// Random ids and their text form, without Foundation.
public enum UUIDText {
  /// A new random (version 4) UUID in lower-case text form.
  ///
  /// Random, not time-ordered: people type the leading digits as a short id, and entries made in
  /// the same minute must not share them.
  public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
    let high = generator.next()
    let low = generator.next()
    var bytes =
      (0..<8).map { UInt8(truncatingIfNeeded: high >> ($0 * 8)) }
      + (0..<8).map { UInt8(truncatingIfNeeded: low >> ($0 * 8)) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return format(bytes)
  }

  /// A new random UUID from the system's secure generator.
  public static func random() -> String {
    var generator = SystemRandomNumberGenerator()
    return random(using: &generator)
  }

  /// The 16 bytes of a version 8 (RFC 9562 "custom") UUID derived from `seed`: the first 16 bytes
  /// of its SHA-256, with the version and variant bits set.
  ///
  /// The one derivation of every id made from content rather than chance (an activity's from its
  /// name, an imported row's from its fields, a foreign record's from what identifies it in its
  /// source), so two machines that see the same content make the same id.
  package static func derivedBytes(fromSeed seed: [UInt8]) -> [UInt8] {
    var bytes = Array(SHA256.hash(seed).prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom, derived
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
    return bytes
  }

  /// The text form of ``derivedBytes(fromSeed:)``.
  package static func derived(fromSeed seed: [UInt8]) -> String {
    format(derivedBytes(fromSeed: seed))
  }

  /// Whether `text` is a UUID in lower-case canonical form (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`),
  /// by the same reader that turns such an id into its stored 16 bytes.
  public static func isCanonical(_ text: String) -> Bool { StoredEntryID.key(ofText: text) != nil }

  /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` from 16 bytes.
  package static func format(_ bytes: [UInt8]) -> String {
    String(unsafeUninitializedCapacity: 36) { text in
      bytes.withUnsafeBytes { write($0, into: UnsafeMutableRawBufferPointer(text)) }
    }
  }

  /// Writes the text form of (at most 16 of) `bytes` into `text` and returns its length: the one
  /// formatter, for Swift strings and for the log's SQL function `lifelog_id_text` alike.
  static func write(
    _ bytes: UnsafeRawBufferPointer, into text: UnsafeMutableRawBufferPointer
  )
    -> Int
  {
    guard text.count >= 36 else { return 0 }
    var position = 0
    for (offset, byte) in bytes.prefix(16).enumerated() {
      if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
        text[position] = UInt8(ascii: "-")
        position += 1
      }
      text[position] = hexDigits[Int(byte >> 4)]
      text[position + 1] = hexDigits[Int(byte & 0x0F)]
      position += 2
    }
    return position
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  public static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var utf8: [UInt8] = []
    utf8.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      utf8.append(digits[Int(byte >> 4)])
      utf8.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: utf8, as: UTF8.self)
  }

  /// The leading hex digits shown as a short id.
  public static let shortLength = 8

  /// The short id of a full id: its first eight hex digits.
  public static func short(_ id: String) -> String { String(id.prefix(shortLength)) }
}
