/// Reads and writes durations the way people type them: `45m`, `1h30m`, `90s`, `1:30`.
public enum DurationText {
  /// The longest duration accepted, 31 days: anything longer is a typing mistake.
  public static let maximumSeconds = 31 * 86_400

  /// Parses a duration into whole seconds.
  ///
  /// - Throws: ``InputError`` for a negative, unitless, malformed or absurdly long duration.
  public static func parse(_ text: String) throws(InputError) -> Int {
    let trimmed = text.lowercased().trimmingSpaces()
    if trimmed.hasPrefix("-") {
      throw InputError("Duration cannot be negative: '\(text)'; give a length such as '45m'")
    }
    guard !trimmed.isEmpty else {
      throw InputError("Empty duration; give a length such as '45m', '1h30m', '90s' or '1:30'")
    }
    let seconds: Int?
    if trimmed.allSatisfy(\.isASCIIDigit) {
      throw InputError(
        "Duration '\(text)' has no unit; write '\(trimmed)m' for minutes or '\(trimmed)s' for seconds"
      )
    } else if trimmed.contains(":") {
      seconds = parseClockStyle(trimmed)
    } else {
      seconds = parseUnits(trimmed)
    }
    guard let seconds else {
      throw InputError(
        "Cannot read duration '\(text)'; use a form such as '45m', '1h30m', '90s' or '1:30' (h:mm)")
    }
    guard seconds <= maximumSeconds else {
      throw InputError("Duration '\(text)' is longer than 31 days; check the value")
    }
    return seconds
  }

  /// `1h30m`, `45m`, `1m30s`, `2h`, `0m`.
  public static func format(_ seconds: Int) -> String {
    let hours = seconds / 3600
    let minutes = seconds / 60 % 60
    let rest = seconds % 60
    var text = ""
    if hours > 0 { text += "\(hours)h" }
    if minutes > 0 { text += "\(minutes)m" }
    if rest > 0 { text += "\(rest)s" }
    return text.isEmpty ? "0m" : text
  }

  /// `h:mm` or `h:mm:ss`.
  private static func parseClockStyle(_ text: String) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count),
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
      parts.dropFirst().allSatisfy({ $0.count == 2 }), parts[0].count <= 3,
      let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60
    else { return nil }
    let seconds = parts.count == 3 ? Int(parts[2]) ?? 60 : 0
    guard seconds < 60 else { return nil }
    return hours * 3600 + minutes * 60 + seconds
  }

  /// A sequence of number-unit pairs, each unit at most once and largest first: `1h30m15s`.
  private static func parseUnits(_ text: String) -> Int? {
    let units: [(names: [String], seconds: Int)] = [
      (["h", "hr", "hrs", "hour", "hours"], 3600),
      (["m", "min", "mins", "minute", "minutes"], 60),
      (["s", "sec", "secs", "second", "seconds"], 1),
    ]
    // Spaces may follow a number or a unit, never split a number ('1 30m' is not '130m').
    var rest = Substring(text)
    var total = 0
    var nextUnit = 0
    while !rest.isEmpty {
      let digits = rest.prefix(while: \.isASCIIDigit)
      guard !digits.isEmpty, digits.count <= 6, let value = Int(digits) else { return nil }
      rest = rest.dropFirst(digits.count).drop { $0 == " " }
      let name = rest.prefix(while: \.isLetter)
      rest = rest.dropFirst(name.count).drop { $0 == " " }
      guard let index = units.indices.first(where: { units[$0].names.contains(String(name)) }),
        index >= nextUnit
      else { return nil }
      total += value * units[index].seconds
      nextUnit = index + 1
    }
    return total
  }
}

extension Character {
  /// `0`–`9` only (`isNumber` also accepts other scripts' digits and fractions).
  package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and newlines.
  public func trimmingSpaces() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let start = firstIndex(where: { !isSpace($0) }),
      let end = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[start...end])
  }
}
