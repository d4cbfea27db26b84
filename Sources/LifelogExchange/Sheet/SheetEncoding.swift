import LifelogCore

/// The text encodings a spreadsheet saves CSV in: UTF-8, UTF-16 (Excel's "Unicode text") and
/// Windows-1250 (what Polish Windows Excel writes for "CSV (separated by semicolons)").
public enum SheetEncoding: String, CaseIterable, Sendable {
  case utf8 = "utf-8"
  case utf16 = "utf-16"
  case windows1250 = "windows-1250"

  /// `utf-8, utf-16, windows-1250` for messages and help.
  public static let list = allCases.map(\.rawValue).joined(separator: ", ")

  /// Reads an `--encoding` value: also `utf8`, `utf16`, `cp1250`.
  public static func parse(_ text: String) throws(InputError) -> SheetEncoding {
    switch text.lowercased().replacingDashes() {
    case "utf8": return .utf8
    case "utf16", "utf16le", "unicode": return .utf16
    case "windows1250", "cp1250": return .windows1250
    default: throw InputError("Unknown encoding '\(text)'; use one of \(list)")
    }
  }

  /// The encoding the bytes show: a byte order mark says UTF-8 or UTF-16; else valid UTF-8 is
  /// UTF-8, zero bytes between ASCII ones are UTF-16 without a mark, and anything else is
  /// Windows-1250.
  public static func detect(_ bytes: [UInt8]) -> SheetEncoding {
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return .utf16 }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8 }
    let sample = bytes.prefix(512)
    if sample.count >= 4, sample.filter({ $0 == 0 }).count * 3 >= sample.count { return .utf16 }
    return String(validating: bytes, as: UTF8.self) != nil ? .utf8 : .windows1250
  }

  /// The bytes as text, without a byte order mark.
  ///
  /// - Throws: ``InputError`` when UTF-8 was asked for and the bytes are not UTF-8.
  public func decode(_ bytes: [UInt8]) throws(InputError) -> String {
    switch self {
    case .utf8:
      let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
      guard let text = String(validating: body, as: UTF8.self) else {
        throw InputError(
          "The file is not UTF-8 text; name its encoding with --encoding (\(Self.list))")
      }
      return text
    case .utf16:
      let bigEndian = bytes.starts(with: [0xFE, 0xFF])
      let start = bytes.starts(with: [0xFF, 0xFE]) || bigEndian ? 2 : 0
      var units: [UInt16] = []
      units.reserveCapacity(bytes.count / 2)
      var index = start
      while index + 1 < bytes.count {
        let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
        units.append(bigEndian ? first << 8 | second : second << 8 | first)
        index += 2
      }
      return String(decoding: units, as: UTF16.self)
    case .windows1250:
      var scalars = String.UnicodeScalarView()
      scalars.reserveCapacity(bytes.count)
      for byte in bytes {
        let value = byte < 0x80 ? UInt32(byte) : UInt32(Self.windows1250High[Int(byte) - 0x80])
        scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
      }
      return String(scalars)
    }
  }

  /// Windows-1250 bytes 0x80–0xFF as Unicode (0xFFFD where the code page has no character).
  private static let windows1250High: [UInt16] = [
    0x20AC, 0xFFFD, 0x201A, 0xFFFD, 0x201E, 0x2026, 0x2020, 0x2021, 0xFFFD, 0x2030, 0x0160, 0x2039,
    0x015A, 0x0164, 0x017D, 0x0179, 0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0xFFFD, 0x2122, 0x0161, 0x203A, 0x015B, 0x0165, 0x017E, 0x017A, 0x00A0, 0x02C7, 0x02D8, 0x0141,
    0x00A4, 0x0104, 0x00A6, 0x00A7, 0x00A8, 0x00A9, 0x015E, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x017B,
    0x00B0, 0x00B1, 0x02DB, 0x0142, 0x00B4, 0x00B5, 0x00B6, 0x00B7, 0x00B8, 0x0105, 0x015F, 0x00BB,
    0x013D, 0x02DD, 0x013E, 0x017C, 0x0154, 0x00C1, 0x00C2, 0x0102, 0x00C4, 0x0139, 0x0106, 0x00C7,
    0x010C, 0x00C9, 0x0118, 0x00CB, 0x011A, 0x00CD, 0x00CE, 0x010E, 0x0110, 0x0143, 0x0147, 0x00D3,
    0x00D4, 0x0150, 0x00D6, 0x00D7, 0x0158, 0x016E, 0x00DA, 0x0170, 0x00DC, 0x00DD, 0x0162, 0x00DF,
    0x0155, 0x00E1, 0x00E2, 0x0103, 0x00E4, 0x013A, 0x0107, 0x00E7, 0x010D, 0x00E9, 0x0119, 0x00EB,
    0x011B, 0x00ED, 0x00EE, 0x010F, 0x0111, 0x0144, 0x0148, 0x00F3, 0x00F4, 0x0151, 0x00F6, 0x00F7,
    0x0159, 0x016F, 0x00FA, 0x0171, 0x00FC, 0x00FD, 0x0163, 0x02D9,
  ]
}

extension String {
  fileprivate func replacingDashes() -> String { filter { $0 != "-" && $0 != "_" } }
}
