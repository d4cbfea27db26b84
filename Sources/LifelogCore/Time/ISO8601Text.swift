/// Strict ISO 8601 with an explicit offset, for machine-written times (environment overrides,
/// batch files): no relative forms, no local-time guessing.
public enum ISO8601Time {
  public static func parse(_ text: String) throws(InputError) -> LoggedTime {
    guard let time = try ISO8601Text.parseWithOffset(text.lowercased(), original: text) else {
      throw InputError(
        "'\(text)' is not an ISO 8601 time with an offset, such as '2026-12-01T08:15:00+01:00'")
    }
    return time
  }
}

/// The strict date forms: `YYYY-MM-DD` and ISO 8601 date-times with an explicit offset.
package enum ISO8601Text {
  /// Parses `YYYY-MM-DD`; nil when `word` is not shaped like a date, an error when it is shaped
  /// like one but names no real day (`2025-13-45`).
  static func parseDate(
    _ word: some StringProtocol, original: String
  ) throws(InputError)
    -> CivilDate?
  {
    let chars = Array(word)
    guard chars.count == 10, chars[4] == "-", chars[7] == "-",
      chars.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || $0.element.isASCIIDigit }
      ),
      let year = Int(String(chars[0..<4])), let month = Int(String(chars[5..<7])),
      let day = Int(String(chars[8..<10]))
    else { return nil }
    guard let date = CivilDate(year: year, month: month, day: day) else {
      throw InputError(
        "'\(original)' is not a real date; write YYYY-MM-DD with month 01-12 and a day that month has"
      )
    }
    return date
  }

  /// The index of the `t` (or space) between date and time in `2026-12-01t08:15`, if shaped so.
  static func separatorIndex(in text: String) -> String.Index? {
    guard text.count > 11 else { return nil }
    let index = text.index(text.startIndex, offsetBy: 10)
    return text[index] == "t" || text[index] == " " ? index : nil
  }

  /// Parses a lower-cased `YYYY-MM-DD[t ]HH:MM[:SS[.fff]]` followed by `z` or an offset (`+01:00`,
  /// `+0100`, `+01`).
  ///
  /// Returns nil when there is no offset (the caller reads it as local time), and throws when the
  /// text has an offset but something in it is wrong.
  static func parseWithOffset(_ text: String, original: String) throws(InputError) -> LoggedTime? {
    guard let separator = separatorIndex(in: text) else { return nil }
    let rest = text[text.index(after: separator)...]
    guard let offsetStart = rest.firstIndex(where: { $0 == "z" || $0 == "+" || $0 == "-" }) else {
      return nil
    }
    guard let date = try parseDate(text[..<separator], original: original) else { return nil }
    var clockPart = rest[..<offsetStart]
    if let dot = clockPart.firstIndex(of: ".") {
      let fraction = clockPart[clockPart.index(after: dot)...]
      guard !fraction.isEmpty, fraction.allSatisfy({ $0 == "0" }) else {
        throw InputError(
          "'\(original)' has a fraction of a second; lifelog records times to the second")
      }
      clockPart = clockPart[..<dot]
    }
    guard clockPart.contains(":"),
      let clock = try ClockText.parse(String(clockPart), original: original)
    else {
      throw InputError(
        "Cannot read the time of day in '\(original)'; write it as HH:MM or HH:MM:SS")
    }
    guard let offsetMinutes = parseOffset(rest[offsetStart...]) else {
      throw InputError(
        "Cannot read the UTC offset in '\(original)'; write it as 'Z', '+01:00' or '-05:00'")
    }
    let local = LocalDateTime(
      date: date, hour: clock.hour, minute: clock.minute, second: clock.second)
    return LoggedTime(
      instant: local.secondsAsIfUTC - Int64(offsetMinutes * 60), offsetMinutes: offsetMinutes)
  }

  /// Parses exactly `YYYY-MM-DDTHH:MM:SS+HH:MM` (or `Z` for the offset; `t` or a space between
  /// date and time) straight from the bytes, as ``LoggedTime/iso8601`` writes it; nil for any
  /// other shape or an impossible value, which the general parser then reads or explains.
  ///
  /// A million-row import reads a million of these: this path allocates nothing.
  package static func parseExact(_ text: String) -> LoggedTime? {
    var text = text
    return text.withUTF8 { bytes -> LoggedTime? in
      guard bytes.count == 25 || bytes.count == 20 else { return nil }
      func number(_ start: Int, _ count: Int) -> Int? { bytes.decimal(at: start, count: count) }
      let separator = bytes[10]
      guard bytes[4] == 0x2D, bytes[7] == 0x2D,
        separator == 0x54 || separator == 0x74 || separator == 0x20,
        bytes[13] == 0x3A, bytes[16] == 0x3A,
        let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
        let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
        hour < 24, minute < 60, second < 60,
        let date = CivilDate(year: year, month: month, day: day)
      else { return nil }
      var offset = 0
      if bytes.count == 20 {
        guard bytes[19] == 0x5A || bytes[19] == 0x7A else { return nil }
      } else {
        guard bytes[19] == 0x2B || bytes[19] == 0x2D, bytes[22] == 0x3A,
          let hours = number(20, 2), let minutes = number(23, 2), hours <= 18, minutes < 60
        else { return nil }
        offset = (bytes[19] == 0x2D ? -1 : 1) * (hours * 60 + minutes)
      }
      let local = LocalDateTime(date: date, hour: hour, minute: minute, second: second)
      return LoggedTime(instant: local.secondsAsIfUTC - Int64(offset * 60), offsetMinutes: offset)
    }
  }

  /// `z`, `+01:00`, `+0100`, `+01` into minutes east of UTC (within ±18 hours).
  private static func parseOffset(_ text: Substring) -> Int? {
    if text == "z" { return 0 }
    let sign = text.first == "-" ? -1 : 1
    let digits = text.dropFirst().filter { $0 != ":" }
    let colons = text.dropFirst().filter { $0 == ":" }.count
    guard digits.allSatisfy(\.isASCIIDigit), digits.count == 2 || digits.count == 4,
      colons == 0
        || (colons == 1 && digits.count == 4 && text.dropFirst().dropFirst(2).first == ":"),
      let hours = Int(digits.prefix(2)),
      let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : String(digits.dropFirst(2))),
      hours <= 18, minutes < 60
    else { return nil }
    return sign * (hours * 60 + minutes)
  }
}
