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
package enum StoredEntryID {
  /// `lifelog_id_key`: the stored form of a text id.
  static let keyFunction = "lifelog_id_key"
  /// `lifelog_id_text`: the text form of a stored id.
  static let textFunction = "lifelog_id_text"

  /// `lifelog_id_key(?)`: a statement's parameter for an entry id given as text.
  static let parameter = "\(keyFunction)(?)"

  /// `lifelog_id_text(column)`: an entry id column read back as text.
  package static func text(of column: String) -> String { "\(textFunction)(\(column))" }

  /// Defines both functions on `database`.
  static func define(on database: Database) throws {
    try database.defineFunction(keyFunction) { argument, output in
      guard argument.kind == .text, key(ofText: argument.bytes, into: output) else {
        return .argument
      }
      return .blob(count: 16)
    }
    try database.defineFunction(textFunction) { argument, output in
      guard argument.kind == .blob, argument.bytes.count == 16 else { return .argument }
      return .text(count: UUIDText.write(argument.bytes, into: output))
    }
  }

  /// Where each byte's two hex digits start in the canonical text, and where its dashes are
  /// (the form ``UUIDText/write(_:into:)`` writes).
  private static let digitOffsets = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]
  private static let dashOffsets = [8, 13, 18, 23]

  /// Writes the 16 bytes of `text` into `output` when `text` is a UUID in lower-case canonical
  /// form (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`); false, writing nothing useful, otherwise.
  static func key(
    ofText text: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
  )
    -> Bool
  {
    guard text.count == 36, output.count >= 16 else { return false }
    for offset in dashOffsets where text[offset] != UInt8(ascii: "-") { return false }
    for (index, offset) in digitOffsets.enumerated() {
      let high = nibble(text[offset])
      let low = nibble(text[offset + 1])
      guard high < 16, low < 16 else { return false }
      output[index] = high << 4 | low
    }
    return true
  }

  /// The value of one lower-case hex digit, or 255.
  @inline(__always) private static func nibble(_ character: UInt8) -> UInt8 {
    let digit = character &- UInt8(ascii: "0")
    if digit < 10 { return digit }
    let letter = character &- UInt8(ascii: "a")
    return letter < 6 ? letter &+ 10 : 255
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
  package static func key(ofText text: String) -> [UInt8]? {
    var copy = text
    var bytes = [UInt8](repeating: 0, count: 16)
    let valid = copy.withUTF8 { utf8 in
      bytes.withUnsafeMutableBytes { key(ofText: UnsafeRawBufferPointer(utf8), into: $0) }
    }
    return valid ? bytes : nil
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
