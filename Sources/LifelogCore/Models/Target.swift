/// A goal for an activity over a period: `150 min/week`, `3 times/day`, `10 km/week`.
public struct Target: Hashable, Sendable, CustomStringConvertible {
  /// What the goal counts.
  public enum Measure: Hashable, Sendable {
    /// Total duration, in minutes.
    case minutes
    /// Number of entries.
    case count
    /// Total quantity, in the activity's unit.
    case quantity(unit: String)
  }

  /// The period a goal is measured over.
  public enum Period: String, CaseIterable, Sendable {
    case day, week, month
  }

  public var amount: Double
  public var measure: Measure
  public var period: Period

  public init(amount: Double, measure: Measure, period: Period) {
    self.amount = amount
    self.measure = measure
    self.period = period
  }

  /// The largest amount a target may have, in its measure (minutes, times or the unit): above any
  /// real goal (a month has 44,640 minutes; 10,000 steps a day is 310,000 a month), and small
  /// enough that every sum and ratio a report makes with it stays exact and fits an `Int`.
  public static let maximumAmount: Double = 10_000_000

  /// Parses `150 min/week`, `2.5h/week`, `3/day`, `3 times/day`, `10 km/week`.
  public init(parsing text: String) throws(InputError) {
    let help =
      "write a target as AMOUNT [UNIT]/PERIOD, e.g. '150 min/week', '3 times/day', '10 km/week'"
    let halves = text.lowercased().split(separator: "/", omittingEmptySubsequences: false)
    guard halves.count == 2, let period = Target.periods[halves[1].trimmingSpaces()] else {
      throw InputError("Cannot read target '\(text)'; \(help)")
    }
    let left = halves[0].trimmingSpaces()
    let number = left.prefix { $0.isASCIIDigit || $0 == "." }
    let unit = left.dropFirst(number.count).trimmingSpaces()
    guard let value = Double(number), value > 0, value.isFinite else {
      throw InputError(
        "Cannot read target '\(text)': the amount must be a positive number; \(help)")
    }
    switch unit {
    case "min", "mins", "minute", "minutes", "m":
      self.init(amount: value, measure: .minutes, period: period)
    case "h", "hr", "hrs", "hour", "hours":
      self.init(amount: value * 60, measure: .minutes, period: period)
    case "", "x", "time", "times": self.init(amount: value, measure: .count, period: period)
    default:
      guard unit.allSatisfy({ $0.isLetter || $0 == "_" }), unit.count <= 16 else {
        throw InputError("Cannot read the unit in target '\(text)'; \(help)")
      }
      self.init(amount: value, measure: .quantity(unit: unit), period: period)
    }
    guard amount <= Target.maximumAmount else {
      throw InputError(
        "Target '\(text)' is larger than \(Int(Target.maximumAmount)) a period; check the amount")
    }
  }

  /// The amount as the canonical text writes it: `150`, `2.5`.
  public var amountText: String {
    // Checked, as `amount` is public: an integral amount beyond Int64 would trap in `Int64(_:)`.
    amount.rounded() == amount && abs(amount) < 1e15 ? String(Int64(amount)) : String(amount)
  }

  /// The canonical text stored and shown: `150 min/week`.
  public var description: String {
    switch measure {
    case .minutes: return "\(amountText) min/\(period.rawValue)"
    case .count: return "\(amountText) times/\(period.rawValue)"
    case .quantity(let unit): return "\(amountText) \(unit)/\(period.rawValue)"
    }
  }

  private static let periods: [String: Period] = [
    "day": .day, "d": .day, "daily": .day, "week": .week, "w": .week, "wk": .week,
    "month": .month, "mo": .month,
  ]
}
