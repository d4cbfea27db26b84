import LifelogSQLite

/// How the log stores an entry id: the 16 bytes of a lower-case UUID, its text everywhere else.
///
/// Every entry id lifelog makes is a lower-case UUID (random, or derived for imports), so the
/// `entry` table keeps those as 16-byte blobs: a third of the 36-byte text in the table and in its
/// primary-key index, which every insert lands at a random place in. An id in any other form
/// (sync accepts any non-empty id from another device) is kept as the text it came as, so no id
/// is ever changed; such text sorts before every blob, and only the order of ties on time sees it.
///
/// SQL converts in place with two functions defined on every connection of a ``LogStore``:
/// `lifelog_id_key(text)` (the stored form) and `lifelog_id_text(stored)` (the text form). Both
/// return any other value unchanged, so neither can fail on what a remote sent.
enum StoredEntryID {
  /// `lifelog_id_key`: the stored form of a text id.
  static let keyFunction = "lifelog_id_key"
  /// `lifelog_id_text`: the text form of a stored id.
  static let textFunction = "lifelog_id_text"

  /// `lifelog_id_key(?)`: a statement's parameter for an entry id given as text.
  static let parameter = "\(keyFunction)(?)"

  /// `lifelog_id_text(column)`: an entry id column read back as text.
  static func text(of column: String) -> String { "\(textFunction)(\(column))" }

  /// Defines both functions on `database`.
  static func define(on database: Database) throws {
    try database.defineFunction(keyFunction) { argument in
      guard argument.kind == .text, let bytes = key(ofText: argument.bytes) else {
        return .argument
      }
      return .blob(bytes)
    }
    try database.defineFunction(textFunction) { argument in
      guard argument.kind == .blob, argument.bytes.count == 16 else { return .argument }
      return .text(Array(UUIDText.format(Array(argument.bytes)).utf8))
    }
  }

  /// The 16 bytes of `text` when it is a UUID in lower-case canonical form
  /// (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`), else nil.
  static func key(ofText text: UnsafeRawBufferPointer) -> [UInt8]? {
    guard text.count == 36 else { return nil }
    var bytes = [UInt8](repeating: 0, count: 16)
    var index = 0
    var high: UInt8?
    for (offset, character) in text.enumerated() {
      if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
        guard character == UInt8(ascii: "-") else { return nil }
        continue
      }
      let nibble: UInt8
      switch character {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character &- UInt8(ascii: "a") &+ 10
      default: return nil
      }
      if let first = high {
        bytes[index] = first << 4 | nibble
        index += 1
        high = nil
      } else {
        high = nibble
      }
    }
    return bytes
  }

  /// The text form of a row key the pre-update hook saw (``RowChangeCapture``).
  static func text(of key: RowChangeCapture.Key) -> String {
    switch key {
    case .text(let text): text
    case .blob(let bytes) where bytes.count == 16: UUIDText.format(bytes)
    case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
    }
  }

  /// The 16 bytes of `text` when it is a lower-case canonical UUID, else nil.
  static func key(ofText text: String) -> [UInt8]? {
    var copy = text
    return copy.withUTF8 { key(ofText: UnsafeRawBufferPointer($0)) }
  }

  /// The range of stored ids whose text starts with `digits` (1 to 32 lower-case hex digits, no
  /// dashes): from the digits padded with zeros, up to the next prefix of the same length.
  ///
  /// A blob sorts by its bytes, then by its length, so the upper end of an all-`f` prefix is 17
  /// bytes of `0xff`, after every 16-byte id.
  static func range(ofPrefix digits: String) -> (from: [UInt8], below: [UInt8])? {
    var nibbles: [UInt8] = []
    for character in digits.utf8 {
      switch character {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(character &- UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"):
        nibbles.append(character &- UInt8(ascii: "a") &+ 10)
      default: return nil
      }
    }
    guard !nibbles.isEmpty, nibbles.count <= 32 else { return nil }
    func bytes(_ nibbles: [UInt8]) -> [UInt8] {
      let even = nibbles.count % 2 == 0 ? nibbles : nibbles + [0]
      return stride(from: 0, to: even.count, by: 2).map { even[$0] << 4 | even[$0 + 1] }
    }
    var next = nibbles
    var position = next.count - 1
    while position >= 0, next[position] == 15 {
      next[position] = 0
      position -= 1
    }
    guard position >= 0 else { return (bytes(nibbles), [UInt8](repeating: 0xff, count: 17)) }
    next[position] += 1
    return (bytes(nibbles), bytes(next))
  }
}
