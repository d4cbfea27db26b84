/// Bytes written as hexadecimal text: keys, salts and nonces in JSON, a recovery key in groups,
/// the embedded catalogs.
public enum HexText {
  /// The bytes of hex text (either case), ignoring `-` and white space, so a key written in groups
  /// or a hex block broken into lines reads the same; nil when anything else is there or a digit
  /// is left without its pair.
  public static func bytes(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count / 2)
    var high: UInt8?
    for character in text.utf8 {
      let value: UInt8
      switch character {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
      case UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"),
        UInt8(ascii: "\r"):
        continue
      default: return nil
      }
      if let first = high {
        bytes.append(first << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    return high == nil ? bytes : nil
  }
}
