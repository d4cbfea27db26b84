/// Base64 (RFC 4648 §4, with padding) for HTTP basic authentication: the one place lifelog needs
/// it, so a few lines rather than Foundation.
enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      let first = UInt32(bytes[index])
      let second = count > 1 ? UInt32(bytes[index + 1]) : 0
      let third = count > 2 ? UInt32(bytes[index + 2]) : 0
      let group = first << 16 | second << 8 | third
      out.append(alphabet[Int(group >> 18 & 63)])
      out.append(alphabet[Int(group >> 12 & 63)])
      out.append(count > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
      out.append(count > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
      index += count
    }
    return String(decoding: out, as: UTF8.self)
  }
}
