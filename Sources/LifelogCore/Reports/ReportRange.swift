/// The days a report covers: `from` through `to`, both inclusive.
public struct ReportRange: Hashable, Sendable {
  public let from: CivilDate
  public let to: CivilDate

  /// The longest range a report covers, about ten years.
  public static let maximumDays = 3_660

  /// - Throws: ``InputError`` when `to` is before `from` or the range is longer than
  ///   ``maximumDays``.
  public init(from: CivilDate, to: CivilDate) throws(InputError) {
    guard from <= to else {
      throw InputError("--to (\(to)) is before --from (\(from)); swap them or widen the range")
    }
    guard to.daysSinceEpoch - from.daysSinceEpoch < Int64(ReportRange.maximumDays) else {
      throw InputError(
        "The range \(from) to \(to) is longer than \(ReportRange.maximumDays) days; report on a shorter range"
      )
    }
    self.from = from
    self.to = to
  }

  /// The seven days that end on `today`.
  public static func week(endingOn today: CivilDate) -> ReportRange {
    // Seven days always fit.
    (try? ReportRange(from: today.adding(days: -6), to: today)) ?? ReportRange(unchecked: today)
  }

  private init(unchecked day: CivilDate) {
    from = day
    to = day
  }

  /// How many days the range covers.
  public var dayCount: Int { Int(to.daysSinceEpoch - from.daysSinceEpoch) + 1 }

  /// Every day of the range, in order.
  public var days: [CivilDate] { (0..<dayCount).map { from.adding(days: $0) } }

  /// The position of `day` in ``days``, or nil when the range does not hold it.
  public func index(of day: CivilDate) -> Int? {
    let index = day.daysSinceEpoch - from.daysSinceEpoch
    return index >= 0 && index < Int64(dayCount) ? Int(index) : nil
  }
}
