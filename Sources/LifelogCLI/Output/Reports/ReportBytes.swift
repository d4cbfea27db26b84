import LifelogCore

/// UTF-8 text built byte by byte, for the long reports: appending to a byte array costs a
/// fraction of appending to a `String`, which matters at 100,000 lines.
struct ReportBytes {
  private(set) var bytes: [UInt8] = []

  /// How many bytes so far.
  var count: Int { bytes.count }

  /// The text, as a `String`.
  var string: String { String(decoding: bytes, as: UTF8.self) }

  mutating func reserve(_ capacity: Int) { bytes.reserveCapacity(capacity) }

  /// Empties the buffer, keeping its memory.
  mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  mutating func spaces(_ count: Int) {
    guard count > 0 else { return }
    for _ in 0..<count { bytes.append(UInt8(ascii: " ")) }
  }

  mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

  /// Drops the spaces at the end.
  mutating func trimTrailingSpaces() {
    while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
  }

  /// Two decimal digits.
  mutating func twoDigits(_ value: Int) {
    bytes.append(UInt8(48 + value / 10 % 10))
    bytes.append(UInt8(48 + value % 10))
  }

  /// A non-negative number in decimal.
  mutating func number(_ value: Int) {
    if value >= 10 { number(value / 10) }
    bytes.append(UInt8(48 + value % 10))
  }

  /// The wall-clock time of `time`, as ``LocalDateTime/timeDescription`` writes it: `07:30`, or
  /// `07:30:15` when the seconds are not zero.
  mutating func clock(_ time: LoggedTime) {
    let local = time.instant + Int64(time.offsetMinutes * 60)
    let second = Int(((local % 86_400) + 86_400) % 86_400)
    twoDigits(second / 3600)
    bytes.append(UInt8(ascii: ":"))
    twoDigits(second / 60 % 60)
    if second % 60 != 0 {
      bytes.append(UInt8(ascii: ":"))
      twoDigits(second % 60)
    }
  }

  /// An offset as ``LoggedTime/offsetDescription(minutes:)`` writes it: `+02:00`, `-05:00`.
  mutating func offset(_ minutes: Int) {
    bytes.append(UInt8(ascii: minutes < 0 ? "-" : "+"))
    twoDigits(abs(minutes) / 60)
    bytes.append(UInt8(ascii: ":"))
    twoDigits(abs(minutes) % 60)
  }

  /// A length in minutes as ``ReportText/minutes(_:)`` writes it: `2h30m`, `45m`, `3h`, `0m`.
  mutating func minutes(_ minutes: Int) {
    let hours = minutes / 60
    let rest = minutes % 60
    if hours > 0 {
      number(hours)
      bytes.append(UInt8(ascii: "h"))
    }
    if rest > 0 {
      number(rest)
      bytes.append(UInt8(ascii: "m"))
    }
    if hours == 0 && rest == 0 { append("0m") }
  }
}
