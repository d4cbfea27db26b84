import LifelogCore

/// The long reports are built byte by byte in LifelogCore's ``TextBytes``: appending to a byte
/// array costs a fraction of appending to a `String`, which matters at 100,000 lines.
typealias ReportBytes = TextBytes

extension TextBytes {
  /// A length in minutes as ``ReportText/minutes(_:)`` writes it: `2h30m`, `45m`, `3h`, `0m`.
  mutating func minutes(_ minutes: Int) {
    let hours = minutes / 60
    let rest = minutes % 60
    if hours > 0 {
      number(hours)
      append(byte: UInt8(ascii: "h"))
    }
    if rest > 0 {
      number(rest)
      append(byte: UInt8(ascii: "m"))
    }
    if hours == 0 && rest == 0 { append("0m") }
  }
}
