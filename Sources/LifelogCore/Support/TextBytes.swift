/// UTF-8 text built byte by byte: the one writer of every machine-read or often-repeated format
/// (ISO 8601 times, clock readings, UTC offsets, CSV fields, JSON strings, fixed decimals).
///
/// The long outputs (an export of a million rows, a report of 100,000 lines) write straight into
/// one of these, because appending to a byte array costs a fraction of appending to a `String`;
/// the `String` forms (``LoggedTime/iso8601``, ``JSONText/quoted(_:)``, `CSVText.field`, …) are
/// wrappers over the same methods, so the two cannot drift apart (TextBytesTests checks both on
/// many values).
public struct TextBytes: Sendable {
  public private(set) var bytes: [UInt8] = []

  public init() {}

  public init(capacity: Int) { bytes.reserveCapacity(capacity) }

  /// The text that `write` builds, as a `String`.
  public static func string(_ write: (inout TextBytes) -> Void) -> String {
    var text = TextBytes()
    write(&text)
    return text.string
  }

  /// How many bytes so far.
  public var count: Int { bytes.count }

  /// The text, as a `String`.
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  public mutating func reserve(_ capacity: Int) { bytes.reserveCapacity(capacity) }

  /// Empties the buffer, keeping its memory.
  public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  public mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  public mutating func append(byte: UInt8) { bytes.append(byte) }

  public mutating func append(_ raw: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: raw) }

  public mutating func spaces(_ count: Int) {
    guard count > 0 else { return }
    for _ in 0..<count { bytes.append(UInt8(ascii: " ")) }
  }

  public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

  /// Drops the spaces at the end.
  public mutating func trimTrailingSpaces() {
    while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
  }

  // MARK: - Numbers

  /// A whole number in decimal, `-` first when negative.
  public mutating func number(_ value: Int64) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    digits(UInt64(value.magnitude), width: 1)
  }

  public mutating func number(_ value: Int) { number(Int64(value)) }

  /// `value` with at least `width` digits, zeros in front (`-` before them when negative):
  /// `digits(7, 2)` is `07`, `digits(-5, 4)` is `-0005`, `digits(12345, 4)` is `12345`.
  public mutating func digits(_ value: Int, _ width: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    digits(UInt64(value.magnitude), width: width)
  }

  private mutating func digits(_ magnitude: UInt64, width: Int) {
    // Clock readings and most gaps: one or two digits, without the divisions below.
    if magnitude < 100 && width <= 2 {
      if magnitude >= 10 || width == 2 { bytes.append(UInt8(48 + magnitude / 10)) }
      bytes.append(UInt8(48 + magnitude % 10))
      return
    }
    var divisor: UInt64 = 1
    var count = 1
    while magnitude / divisor >= 10 {
      divisor *= 10
      count += 1
    }
    if width > count {
      for _ in count..<width { bytes.append(UInt8(ascii: "0")) }
    }
    while divisor > 0 {
      bytes.append(UInt8(48 + magnitude / divisor % 10))
      divisor /= 10
    }
  }

  /// A number with exactly `decimals` digits after the point (0 to 6): `4.60`; `-` only when the
  /// rounded value is not zero.
  ///
  /// Beyond 10^15 (or not finite) it falls back to Swift's own form (`1e+20`, `inf`) rather than
  /// trapping in `Int64(_:)`.
  public mutating func fixed(_ value: Double, decimals: Int) {
    let places = min(max(decimals, 0), 6)
    var scale: Int64 = 1
    for _ in 0..<places { scale *= 10 }
    guard value.isFinite, abs(value) * Double(scale) < 1e15 else { return append(String(value)) }
    let scaled = Int64((abs(value) * Double(scale)).rounded())
    if value < 0 && scaled != 0 { bytes.append(UInt8(ascii: "-")) }
    number(scaled / scale)
    guard places > 0 else { return }
    bytes.append(UInt8(ascii: "."))
    digits(Int(scaled % scale), places)
  }

  // MARK: - Times

  /// ISO 8601 with the logged offset: `2026-12-01T08:15:00+01:00`.
  public mutating func iso8601(_ time: LoggedTime) {
    let local = time.local
    date(local.date)
    bytes.append(UInt8(ascii: "T"))
    digits(local.hour, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(local.minute, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(local.second, 2)
    offset(minutes: time.offsetMinutes)
  }

  /// A UTC time to the millisecond, as the server's request log writes it:
  /// `2026-12-01T07:15:00.042Z`.
  public mutating func iso8601UTC(seconds: Int64, milliseconds: Int) {
    let local = LocalDateTime(instant: seconds, offsetSeconds: 0)
    date(local.date)
    bytes.append(UInt8(ascii: "T"))
    clock(hour: local.hour, minute: local.minute, second: local.second, alwaysSeconds: true)
    bytes.append(UInt8(ascii: "."))
    digits(milliseconds, 3)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// `2026-12-01` (a year past 9999 in full, one before 0 with `-`).
  public mutating func date(_ date: CivilDate) {
    digits(date.year, 4)
    bytes.append(UInt8(ascii: "-"))
    digits(date.month, 2)
    bytes.append(UInt8(ascii: "-"))
    digits(date.day, 2)
  }

  /// The wall-clock time of `time`: `07:30`, or `07:30:15` when the seconds are not zero.
  public mutating func clock(_ time: LoggedTime) {
    let local = time.instant &+ Int64(time.offsetMinutes) &* 60
    let second = Int(((local % 86_400) + 86_400) % 86_400)
    clock(hour: second / 3600, minute: second / 60 % 60, second: second % 60)
  }

  /// `08:15`, or `08:15:30` when the seconds are not zero (or `alwaysSeconds`).
  public mutating func clock(hour: Int, minute: Int, second: Int, alwaysSeconds: Bool = false) {
    digits(hour, 2)
    bytes.append(UInt8(ascii: ":"))
    digits(minute, 2)
    guard second != 0 || alwaysSeconds else { return }
    bytes.append(UInt8(ascii: ":"))
    digits(second, 2)
  }

  /// A UTC offset: `+01:00`, `-05:00`, `+05:45`; UTC is `+00:00`.
  public mutating func offset(minutes: Int) {
    bytes.append(UInt8(ascii: minutes < 0 ? "-" : "+"))
    digits(Int(minutes.magnitude / 60), 2)
    bytes.append(UInt8(ascii: ":"))
    digits(Int(minutes.magnitude % 60), 2)
  }

  // MARK: - Quoted text

  /// An RFC 4180 CSV field: as it is, or in double quotes (a quote doubled) when it holds a comma,
  /// a quote or a line break (CR or LF, also as a part of a CRLF).
  public mutating func csvField(_ text: UnsafeBufferPointer<UInt8>) {
    guard text.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
      bytes.append(contentsOf: text)
      return
    }
    appendQuoted(text, after: nil)
  }

  public mutating func csvField(_ text: String) {
    var text = text
    text.withUTF8 { csvField($0) }
  }

  /// A CSV field of text a person wrote (an activity, a note, a unit, tags).
  ///
  /// As ``csvField(_:)-(UnsafeBufferPointer<UInt8>)``, except that text a spreadsheet would run
  /// as a formula is quoted with a `'` in front (``FormulaGuard``). Numbers, times and ids go
  /// through `csvField`: `-5` stays a number.
  public mutating func csvText(_ text: UnsafeBufferPointer<UInt8>) {
    guard FormulaGuard.isGuarded(text) else { return csvField(text) }
    appendQuoted(text, after: UInt8(ascii: "'"))
  }

  /// `text` in double quotes, a quote inside doubled, with `mark` (the formula guard) first.
  private mutating func appendQuoted(_ text: UnsafeBufferPointer<UInt8>, after mark: UInt8?) {
    bytes.append(0x22)
    if let mark { bytes.append(mark) }
    for byte in text {
      if byte == 0x22 { bytes.append(0x22) }
      bytes.append(byte)
    }
    bytes.append(0x22)
  }

  public mutating func csvText(_ text: String) {
    var text = text
    text.withUTF8 { csvText($0) }
  }

  /// A JSON string literal, with the escapes RFC 8259 requires (`\"`, `\\`, `\n`, `\r`, `\t`,
  /// other control characters as `\u00XX`); everything else as it is.
  public mutating func jsonString(_ text: UnsafeBufferPointer<UInt8>) {
    bytes.append(0x22)
    for byte in text {
      switch byte {
      case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
      case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0x0F)])
      default: bytes.append(byte)
      }
    }
    bytes.append(0x22)
  }

  public mutating func jsonString(_ text: String) {
    var text = text
    text.withUTF8 { jsonString($0) }
  }
}
