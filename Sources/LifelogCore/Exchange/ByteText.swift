extension [UInt8] {
  /// Appends `value` in decimal, `-` first when it is negative.
  mutating func appendDecimal(_ value: Int64) {
    if value < 0 { append(UInt8(ascii: "-")) }
    appendDecimal(magnitude: value.magnitude)
  }

  /// Digit by digit from the most significant, without an intermediate `String` (export rows).
  private mutating func appendDecimal(magnitude: UInt64) {
    if magnitude >= 10 { appendDecimal(magnitude: magnitude / 10) }
    append(UInt8(48 + magnitude % 10))
  }

  /// Appends the last `width` decimal digits of `value` (which is 0 or more), zero-padded.
  mutating func appendDigits(_ value: Int, _ width: Int) {
    var divisor = 1
    for _ in 1..<width { divisor *= 10 }
    while divisor > 0 {
      append(UInt8(48 + value / divisor % 10))
      divisor /= 10
    }
  }
}
