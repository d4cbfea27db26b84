/// How a gap between two meals of one day stands against the rule of eating every
/// `mealGapMinHours` to `mealGapHours`: too short or too long, slightly or far.
///
/// A gap is far outside when it misses the rule by ``farMarginMinutes`` or more: an hour is what
/// a reader tells apart at a glance from a quarter-hour slip. The ``code`` is the machine-readable
/// value of JSON and CSV, never translated.
public enum MealGapFlag: UInt8, Hashable, Sendable, CaseIterable {
  case slightlyShort = 1
  case farTooShort
  case slightlyLong
  case farTooLong

  /// How far outside the rule a gap must be to be far outside it.
  public static let farMarginMinutes = 60

  /// The flag of a gap of `minutes` between `minimum` and `maximum` minutes (inclusive); nil
  /// when it keeps the rule.
  public init?(gapMinutes minutes: Int, minimum: Double, maximum: Double) {
    let gap = Double(minutes)
    let far = Double(Self.farMarginMinutes)
    if gap > maximum {
      self = gap - maximum >= far ? .farTooLong : .slightlyLong
    } else if gap < minimum {
      self = minimum - gap >= far ? .farTooShort : .slightlyShort
    } else {
      return nil
    }
  }

  /// Shorter than the rule's minimum.
  public var isShort: Bool { self == .slightlyShort || self == .farTooShort }

  /// Missing the rule by ``farMarginMinutes`` or more.
  public var isFar: Bool { self == .farTooShort || self == .farTooLong }

  /// `short`, `far-short`, `long` or `far-long`: the value JSON and CSV give.
  public var code: String {
    switch self {
    case .slightlyShort: "short"
    case .farTooShort: "far-short"
    case .slightlyLong: "long"
    case .farTooLong: "far-long"
    }
  }
}
