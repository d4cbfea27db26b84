/// Text from elsewhere (a synced note or activity name, a server's error message) made safe to
/// show on a terminal: control characters are shown as visible escapes instead of acting.
///
/// A note that came by sync was typed on another machine, or written by whoever can write to the
/// remote; `\u{1B}[2J` in it would clear the screen of everyone who lists it, and other escapes can
/// retitle the window or fake a prompt. Text output (tables, confirmations, reports, errors) passes
/// outside text through ``visible(_:keepingNewlines:)``; machine formats (JSON, CSV, export) keep
/// the exact bytes, escaped by their own rules.
enum TerminalText {
  /// `text` with every C0 control, DEL and C1 control written as a visible escape.
  ///
  /// C0 and DEL become `\x1b`, C1 `\u{9b}`. With `keepingNewlines`, line feeds stay (a message
  /// of several lines).
  static func visible(_ text: String, keepingNewlines: Bool = false) -> String {
    guard needsEscaping(text.utf8, keepingNewlines: keepingNewlines) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value == 0x0A && keepingNewlines {
        result.unicodeScalars.append(scalar)
      } else if value < 0x20 || value == 0x7F {
        result += "\\x" + hex(value)
      } else if (0x80...0x9F).contains(value) {
        result += "\\u{" + String(value, radix: 16) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether any byte starts a control: below 0x20, 0x7F, or 0xC2 0x80-0x9F (C1 in UTF-8).
  ///
  /// Most text has none, and is returned without a copy. A native string's bytes are scanned
  /// in place (a report checks every note and name it shows: 200,000 over 100,000 meals).
  private static func needsEscaping(_ utf8: String.UTF8View, keepingNewlines: Bool) -> Bool {
    utf8.withContiguousStorageIfAvailable {
      needsEscaping(bytes: $0, keepingNewlines: keepingNewlines)
    } ?? needsEscaping(bytes: utf8, keepingNewlines: keepingNewlines)
  }

  private static func needsEscaping(bytes: some Sequence<UInt8>, keepingNewlines: Bool) -> Bool {
    var previous: UInt8 = 0
    for byte in bytes {
      if byte < 0x20 && !(byte == 0x0A && keepingNewlines) { return true }
      if byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
      previous = byte
    }
    return false
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
  }
}
