import LifelogCore

/// Random field values of the kinds people and imports produce, including awkward ones: quotes,
/// backslashes, control characters, combining marks, emoji, whole and fractional quantities,
/// times before 1970, odd UTC offsets.
extension SimulationRandom {
  static let noteFragments = [
    "oatmeal, coffee", "park \"long\" way\nhome", "tab\there", "back\\slash", "🍎🥐", "café",
    "e\u{301}",
    "日本語のメモ", "\u{1}\u{1f}\u{7f}", "\r\n", "null", "{\"json\": [1, 2]}", " spaced ", "Ω≈ç√",
    "\u{2028}line separator", "zero\u{200B}width", "👩‍👩‍👧", "0", "-",
  ]
  static let tagPool = [
    "home", "work", "🍎", "outdoor", "dog", "café", "e\u{301}x", "x_y", "ünï", "tag-1", "#hash",
  ]
  static let activityNames = [
    "tea", "Tea", "green tea", "swim", "yoga", "chai", "coffee", "nap", "pills", "café", "Walk",
    "run",
    "workout", "sleep", "breakfast", "Lunch", "stretch", "Ünïcode", "日本茶", "e\u{301}clair",
  ]
  static let units = ["km", "kcal", "glasses", "min", "Steps"]
  static let targets = [
    "150 min/week", "3 times/day", "2.5h/week", "10 km/week", "500 kcal/day", "8 glasses/day",
  ]

  mutating func note() -> String? {
    if chance(0.2) { return nil }
    if chance(0.02) { return String(repeating: pick(Self.noteFragments), count: int(50...400)) }
    return (0..<int(1...3)).map { _ in pick(Self.noteFragments) }.joined(
      separator: pick([" ", "", "\n"]))
  }

  mutating func tags() -> [String] {
    (0..<int(0...3)).map { _ in pick(Self.tagPool) }
  }

  mutating func loggedTime() -> LoggedTime {
    let instant = chance(0.03) ? int64(-2_208_988_800...0) : int64(946_684_800...2_208_988_800)
    let offset =
      chance(0.7)
      ? pick([0, 60, 120, -300, -240, 330, 345, 540, -570, 840, -720]) : int(-720...840)
    return LoggedTime(instant: instant, offsetMinutes: offset)
  }

  mutating func duration() -> Int? {
    chance(0.3) ? nil : pick([0, 60, 2700, int(0...172_800), int(0...DurationText.maximumSeconds)])
  }

  mutating func quantity() -> Double? {
    if chance(0.4) { return nil }
    switch weighted([30, 30, 10, 3, 3, 3, 3, 1]) {
    case 0: return Double(int(0...100))
    case 1: return Double.random(in: 0..<1000, using: &self)
    case 2: return Double(int(1...1000)) / 7
    case 3: return EntryFields.maximumQuantity
    case 4: return 123_456_789.123_456_78
    case 5: return 5e-324
    case 6: return 0.1 + 0.2
    default: return -0.0
    }
  }

  mutating func source() -> String? {
    chance(0.7) ? nil : pick(["import.csv", "phone", "ü", "a \"quoted\" file.jsonl"])
  }

  mutating func unit() -> String? { chance(0.5) ? nil : pick(Self.units) }

  mutating func target() -> Target? {
    chance(0.5) ? nil : try? Target(parsing: pick(Self.targets))
  }

  /// A value for a setting, now and then one it refuses.
  mutating func value(for setting: Setting) -> String {
    if chance(0.05) { return pick(["", "25", "noon", "someday", "two\nlines"]) }
    switch setting {
    case .mealGapHours:
      return pick(["0.5", "2", "2.5", "3", "4.25", "24", String(Double(int(1...48)) / 2)])
    case .mealGapMinHours: return pick(["0", "1", "1.5", "2", "2.5"])
    case .dayStartsAt: return pick(["04:00", "03:30", "05:15", "00:00", "23:59"])
    case .weekStartsOn: return pick(["monday", "Sunday", "saturday", "wednesday"])
    case .name: return pick(["", "Ada", "Zoë", "José e\u{301}", "名前", "\"quoted\" \\ name"])
    case .remindQuietHours: return pick(["22:00-07:00", "23:30-06:00", "off", "13:00-14:00"])
    case .remindBeforeMinutes: return pick(["0", "10", "30", "180"])
    case .language: return pick(["auto", "en", "pl", "PL"])
    }
  }
}
