/// The parts of an entry's `add_step` a clock read needs (its seq and clock), read in Swift
/// from the one form lifelog writes it in: SQLite's `json_array` of
/// `[seq, at_ms, description, clock_ms, clock_counter, stamps]`, with no space, integers as plain
/// digits, text as JSON strings and a clock that is two integers or two `null`s.
///
/// Anything else (spaces, other number forms, a hand-written value) is not read here: ``init(_:)``
/// returns nil and the caller asks SQLite's JSON functions, whose answer is the rule. So a value
/// read here means what those functions would say it means, and parsing it costs no statement
/// (SQLite's parse of the JSON calls, on every `add`, cost more than the read itself).
struct EntryStepText {
  let seq: Int64
  /// The clock reading kept with the step, nil when it keeps none.
  let clock: HybridClock?

  /// Parses `bytes`; nil for anything not in the form lifelog writes (never a trap).
  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    var scanner = Scanner(bytes: bytes)
    guard scanner.take(UInt8(ascii: "[")), let seq = scanner.integer(),
      scanner.take(UInt8(ascii: ",")), scanner.integer() != nil,
      scanner.take(UInt8(ascii: ",")), scanner.string(),
      scanner.take(UInt8(ascii: ","))
    else { return nil }
    var clock: HybridClock?
    if scanner.null() {
      guard scanner.take(UInt8(ascii: ",")), scanner.null() else { return nil }
    } else {
      guard let milliseconds = scanner.integer(), scanner.take(UInt8(ascii: ",")),
        let counter = scanner.integer()
      else { return nil }
      clock = HybridClock(milliseconds: milliseconds, counter: Int(clamping: counter))
    }
    guard scanner.take(UInt8(ascii: ",")), scanner.string(), scanner.take(UInt8(ascii: "]")),
      scanner.atEnd
    else { return nil }
    self.seq = seq
    self.clock = clock
  }

  /// A cursor over the bytes; each reader moves past what it read and returns false or nil,
  /// moving nowhere useful, when the bytes are not what it reads.
  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    mutating func null() -> Bool {
      for byte in "null".utf8 where !take(byte) { return false }
      return true
    }

    /// A JSON integer with no fraction or exponent that fits in 64 bits.
    mutating func integer() -> Int64? {
      let negative = take(UInt8(ascii: "-"))
      let start = index
      var value: Int64 = 0
      while index < bytes.count, (48...57).contains(bytes[index]) {
        let digit = Int64(bytes[index] - 48)
        let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflowSum) =
          negative
          ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
        guard !overflowTimes, !overflowSum else { return nil }
        value = sum
        index += 1
      }
      let count = index - start
      guard count > 0, count == 1 || bytes[start] != 48 else { return nil }
      // A fraction or an exponent makes it a real to SQLite: not this form.
      if index < bytes.count, [46, 69, 101].contains(bytes[index]) { return nil }
      return value
    }

    /// A JSON string: no control character, and only the escapes JSON has.
    mutating func string() -> Bool {
      guard take(UInt8(ascii: "\"")) else { return false }
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return true
        case 0..<0x20: return false
        case UInt8(ascii: "\\"):
          guard index < bytes.count else { return false }
          let escaped = bytes[index]
          index += 1
          if escaped == UInt8(ascii: "u") {
            for _ in 0..<4 {
              guard index < bytes.count, Self.isHexDigit(bytes[index]) else { return false }
              index += 1
            }
          } else if !"\"\\/bfnrt".utf8.contains(escaped) {
            return false
          }
        default: continue
        }
      }
      return false
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
      (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }
  }
}
