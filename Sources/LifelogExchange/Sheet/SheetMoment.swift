import LifelogCore

/// A time of day read from a cell.
public struct SheetClock: Equatable, Sendable {
  public var hour: Int
  public var minute: Int
  public var second: Int

  /// `7:30`, `07:30:15`, `07.30`, `7.30 am`, `7pm`, `19h30`: nil when it is none of them.
  public static func parse(_ text: String) -> SheetClock? {
    var body = text.lowercased().filter { $0 != " " }
    body = body.replacing("a.m.", with: "am").replacing("p.m.", with: "pm")
    var meridiem: String?
    if body.hasSuffix("am") || body.hasSuffix("pm") {
      meridiem = String(body.suffix(2))
      body.removeLast(2)
    }
    let parts = body.split(omittingEmptySubsequences: false) { ":.h".contains($0) }
    guard (1...3).contains(parts.count), meridiem != nil || parts.count >= 2,
      parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
      parts.dropFirst().allSatisfy({ $0.count == 2 }),
      var hour = Int(parts[0]), let minute = parts.count > 1 ? Int(parts[1]) : 0,
      let second = parts.count > 2 ? Int(parts[2]) : 0, minute < 60, second < 60
    else { return nil }
    if let meridiem {
      guard (1...12).contains(hour) else { return nil }
      hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
    }
    guard hour < 24 else { return nil }
    return SheetClock(hour: hour, minute: minute, second: second)
  }

  /// The time of day of a spreadsheet serial's fraction, to the nearest second.
  public init(fraction: Double) {
    let seconds = min(86_399, max(0, Int((fraction - fraction.rounded(.down)) * 86_400 + 0.5)))
    self.init(hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60)
  }

  public init(hour: Int, minute: Int, second: Int) {
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// `07:30` or `07:30:15`.
  public var text: String {
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(two(hour)):\(two(minute))" + (second == 0 ? "" : ":\(two(second))")
  }
}

/// The date, time or both a cell holds, as read before the rows decide an ambiguous order.
enum SheetMoment: Equatable {
  /// An ISO 8601 time with its offset: read by lifelog's own parser as it is.
  case exact(String)
  /// A date (its numbers, the order still open when ``ambiguous``), a time of day, or both.
  case local(date: SheetDay?, clock: SheetClock?)

  /// A day as written: a whole date, or the two numbers of `a/b/yyyy` and its year.
  enum SheetDay: Equatable {
    case known(CivilDate)
    case ambiguous(first: Int, second: Int, year: Int)

    /// The date, the order of an ambiguous one decided (either, when its numbers are equal).
    func date(order: SheetDateOrder?) -> CivilDate? {
      switch self {
      case .known(let date): return date
      case .ambiguous(let first, let second, let year):
        let dayFirst = order == .dayFirst || first > 12 || (order == nil && first == second)
        return dayFirst
          ? CivilDate(year: year, month: second, day: first)
          : CivilDate(year: year, month: first, day: second)
      }
    }
  }

  /// The first Excel serial day, 1900-01-01 is serial 1 (serials count from 1899-12-30).
  static let serialEpochOffset: Int64 = 25_569

  /// The moment of a spreadsheet serial: days since 1899-12-30, the fraction the time of day.
  ///
  /// A fraction alone (below 1) is a time without a date.
  static func serial(_ value: Double) -> SheetMoment? {
    guard value.isFinite, value >= 0, value < 2_958_466 else { return nil }  // to 9999-12-31
    let days = value.rounded(.down)
    let fraction = value - days
    let clock = fraction == 0 ? nil : SheetClock(fraction: fraction)
    guard days >= 1 else { return .local(date: nil, clock: SheetClock(fraction: fraction)) }
    let date = CivilDate(daysSinceEpoch: Int64(days) - serialEpochOffset)
    return .local(date: .known(date), clock: clock)
  }

  /// Reads a cell's text: a date, a date and a time, or a time alone; nil when it is none.
  ///
  /// Dates: ISO 8601, `d.m.yyyy`, `a/b/yyyy`, `6 grudnia 2026`, `Dec 6, 2026`.
  static func parse(_ raw: String, order: SheetDateOrder?) -> SheetMoment? {
    let text = raw.trimmingSpaces()
    guard !text.isEmpty else { return nil }
    if text.utf8.count >= 16, text.contains("T") || text.contains(" "),
      ISO8601Text.parseExact(text) != nil
    {
      return .exact(text)
    }
    if text.utf8.allSatisfy({ (48...57).contains($0) || $0 == 46 }),
      text.utf8.prefix(while: { $0 != 46 }).count == 5, let value = Double(text)
    {
      return serial(value)  // a serial saved as a number (`46000`, `46000.3125`)
    }
    var words = text.lowercased().replacing(",", with: " ").split(separator: " ").map(String.init)
    if words.count == 1, let split = isoSplit(words[0]) { words = split }
    if let clock = SheetClock.parse(words.joined(separator: " ")) {
      return .local(date: nil, clock: clock)
    }
    for taken in [3, 1] where words.count >= taken {
      guard let day = day(words.prefix(taken).map { $0 }, order: order) else { continue }
      let rest = words.dropFirst(taken).joined(separator: " ")
      if rest.isEmpty { return .local(date: day, clock: nil) }
      guard let clock = SheetClock.parse(rest) else { return nil }
      return .local(date: day, clock: clock)
    }
    return nil
  }

  /// `2026-12-06T07:30` as its date and time words.
  private static func isoSplit(_ word: String) -> [String]? {
    guard let t = word.firstIndex(of: "t"), word.distance(from: word.startIndex, to: t) == 10
    else { return nil }
    return [String(word[..<t]), String(word[word.index(after: t)...])]
  }

  /// A date of one word (`6.12.2026`, `2026-12-06`, `6-gru-2026`) or three (`6 grudnia 2026`).
  private static func day(_ words: [String], order: SheetDateOrder?) -> SheetDay? {
    let parts =
      words.count == 3
      ? words.map { $0.trimmingCharacters(".") }
      : words[0].split(omittingEmptySubsequences: false) { "./-".contains($0) }.map(String.init)
    guard parts.count == 3 else { return nil }
    let numbers = parts.map { Int($0) }
    if let (monthIndex, month) = parts.enumerated().lazy.compactMap({ part in
      MonthNames.month(part.element).map { (part.offset, $0) }
    }).first {
      let others = (0..<3).filter { $0 != monthIndex }.compactMap { numbers[$0] }
      guard others.count == 2 else { return nil }
      let (day, year) = others[0] > 31 ? (others[1], others[0]) : (others[0], others[1])
      return CivilDate(year: year, month: month, day: day).map(SheetDay.known)
    }
    guard let a = numbers[0], let b = numbers[1], let c = numbers[2],
      parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 })
    else { return nil }
    if parts[0].count == 4 {
      return CivilDate(year: a, month: b, day: c).map(SheetDay.known)
    }
    guard parts[2].count == 4 else { return nil }
    switch order ?? (words[0].contains("/") ? nil : .dayFirst) {
    case .dayFirst?: return CivilDate(year: c, month: b, day: a).map(SheetDay.known)
    case .monthFirst?: return CivilDate(year: c, month: a, day: b).map(SheetDay.known)
    case .yearFirst?: return nil
    case nil:
      guard (1...31).contains(a), (1...31).contains(b), a <= 12 || b <= 12 else { return nil }
      return .ambiguous(first: a, second: b, year: c)
    }
  }
}

/// Month names as a Polish or English sheet writes them, by their first three letters
/// (`gru`, `grudnia`, `grudzień`, `Dec`, `December`).
enum MonthNames {
  private static let prefixes: [String: Int] = [
    "sty": 1, "lut": 2, "mar": 3, "kwi": 4, "maj": 5, "cze": 6, "lip": 7, "sie": 8, "wrz": 9,
    "paź": 10, "paz": 10, "lis": 11, "gru": 12,
    "jan": 1, "feb": 2, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10,
    "nov": 11, "dec": 12,
  ]

  static func month(_ word: String) -> Int? {
    let lowered = word.lowercased()
    guard lowered.count >= 3, lowered.allSatisfy(\.isLetter) else { return nil }
    return prefixes[String(lowered.prefix(3))]
  }
}

extension String {
  fileprivate func trimmingCharacters(_ characters: String) -> String {
    String(
      self.drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
  }
}
