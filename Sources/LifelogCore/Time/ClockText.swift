/// A time of day as typed: `08:15`, `8:15:30`, `8am`, `7:30pm`, `12am` (midnight).
struct ClockText {
  let hour: Int
  let minute: Int
  let second: Int

  /// Returns nil when `word` does not look like a time of day, and throws when it does but is
  /// out of range (`25:00`, `13pm`).
  static func parse(_ word: String, original: String) throws(InputError) -> ClockText? {
    var text = Substring(word)
    var meridiem: Substring?
    if text.hasSuffix("am") || text.hasSuffix("pm") {
      meridiem = text.suffix(2)
      text = text.dropLast(2)
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count),
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
      parts[0].count <= 2, parts.dropFirst().allSatisfy({ $0.count == 2 }),
      meridiem != nil || parts.count >= 2,
      let hour = Int(parts[0])
    else { return nil }
    let minute = parts.count > 1 ? Int(parts[1]) ?? 99 : 0
    let second = parts.count > 2 ? Int(parts[2]) ?? 99 : 0
    guard minute < 60, second < 60 else {
      throw InputError("'\(original)' has minutes or seconds past 59; check the time")
    }
    guard let meridiem else {
      guard hour < 24 else {
        throw InputError("'\(original)' has hour \(hour); hours run from 00 to 23")
      }
      return ClockText(hour: hour, minute: minute, second: second)
    }
    guard (1...12).contains(hour) else {
      throw InputError(
        "'\(original)' has hour \(hour) with \(meridiem); use 1-12 with am/pm, or 24-hour time such as '13:00'"
      )
    }
    let hour24 = (hour % 12) + (meridiem == "pm" ? 12 : 0)
    return ClockText(hour: hour24, minute: minute, second: second)
  }
}
