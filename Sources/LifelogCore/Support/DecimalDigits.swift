extension UnsafeBufferPointer<UInt8> {
  /// The whole number written in the `count` ASCII digits from `start`, or nil when one of them
  /// is not a digit or they do not all lie in the buffer.
  ///
  /// The fixed-width time readers (``ISO8601Text``, timewarrior's `20231001T103000Z`) read their
  /// fields with it straight from the bytes, allocating nothing: an import reads millions.
  package func decimal(at start: Int, count: Int) -> Int? {
    guard start >= 0, count >= 0, count <= 18, start <= self.count - count else { return nil }
    var value = 0
    for offset in start..<(start + count) {
      let digit = Int(self[offset]) - 48
      guard (0...9).contains(digit) else { return nil }
      value = value * 10 + digit
    }
    return value
  }
}
