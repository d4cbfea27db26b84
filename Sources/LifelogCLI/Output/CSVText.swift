import LifelogCore

/// RFC 4180 CSV: fields quoted when they hold a comma, quote or line break; CRLF line ends.
///
/// The `String` form of ``TextBytes/csvField(_:)-(String)``, which `lifelog export` writes with.
enum CSVText {
  /// A row of `fields`; those at `texts` are text people wrote (names, notes, units, tags), so
  /// one that would start a formula is guarded (``TextBytes/csvText(_:)-(String)``).
  static func row(_ fields: [String], texts: Set<Int> = []) -> String {
    TextBytes.string { text in
      for (index, field) in fields.enumerated() {
        if index > 0 { text.append(byte: UInt8(ascii: ",")) }
        if texts.contains(index) { text.csvText(field) } else { text.csvField(field) }
      }
      text.append("\r\n")
    }
  }

  static func field(_ value: String) -> String {
    TextBytes.string { $0.csvField(value) }
  }
}
