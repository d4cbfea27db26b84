import LifelogCore

/// Numbers and durations as a sheet holds them.
enum SheetNumber {
  /// A quantity as lifelog's CSV writes it: a number cell as it is; a text cell with a decimal
  /// comma (`1,5`) or spaces between thousands (`1 200`) read as the number it shows.
  static func quantity(_ cell: SheetCell) throws(InputError) -> String? {
    switch cell {
    case .empty: return nil
    case .number(let value), .date(let value): return JSONText.number(value)
    case .bool: throw InputError("The quantity is TRUE or FALSE, not a number")
    case .text(let raw):
      let text = raw.trimmingSpaces()
      if text.isEmpty { return nil }
      return decimal(text) ?? text  // lifelog's own check names what is wrong
    }
  }

  /// `1,5` as `1.5`, `1 200,5` as `1200.5`; nil when the text is not such a number.
  static func decimal(_ text: String) -> String? {
    let compact = text.filter { $0 != " " && $0 != "\u{A0}" && $0 != "\u{202F}" }
    let commas = compact.filter { $0 == "," }.count
    guard commas <= 1, !compact.contains(".") || commas == 0 else { return nil }
    let result = compact.replacing(",", with: ".")
    guard Double(result) != nil else { return nil }
    return result
  }

  /// A duration in seconds: a time cell (`0:45` styled as time) by its fraction of a day; text
  /// `1:30` as hours and minutes; a plain number as minutes (what people mean by `45`); other
  /// text as `lifelog add --duration` takes it (`45m`, `1h30m`).
  static func durationSeconds(_ cell: SheetCell) throws(InputError) -> Int? {
    switch cell {
    case .empty: return nil
    case .date(let value):
      guard value.isFinite, value >= 0, value <= 31 else { throw tooLong(cell.text) }
      return Int((value * 86_400).rounded())
    case .number(let value): return try minutes(value, cell.text)
    case .bool: throw InputError("The duration is TRUE or FALSE, not a length of time")
    case .text(let raw):
      let text = raw.trimmingSpaces()
      if text.isEmpty { return nil }
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      if (2...3).contains(parts.count),
        parts.allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
        let hours = Int(parts[0]), let minutes = Int(parts[1]),
        let seconds = parts.count == 3 ? Int(parts[2]) : 0, minutes < 60, seconds < 60
      {
        return hours * 3600 + minutes * 60 + seconds
      }
      if let number = decimal(text).flatMap(Double.init) { return try minutes(number, text) }
      return try DurationText.parse(text)
    }
  }

  private static func minutes(_ value: Double, _ text: String) throws(InputError) -> Int {
    guard value.isFinite, value >= 0, value * 60 <= Double(DurationText.maximumSeconds) else {
      throw tooLong(text)
    }
    return Int((value * 60).rounded())
  }

  private static func tooLong(_ text: String) -> InputError {
    InputError("Duration '\(text)' is not a length of time up to 31 days; check the value")
  }
}
