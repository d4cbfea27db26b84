/// The days a report covers: `from` through `to`, both inclusive.
public struct ReportRange: Hashable, Sendable {
  public let from: CivilDate
  public let to: CivilDate

  /// The first day a report can cover.
  ///
  /// Any range inside ``earliest`` ... ``latest`` is accepted, however long: a report's memory
  /// grows with the entries it reads (a part at a time) and shows, not with the days or years it
  /// spans (a day or period without entries is made when written), so a whole 20-year log is an
  /// ordinary question.
  public static let earliest = CivilDate(daysSinceEpoch: -25_567)  // 1900-01-01
  /// The last day a report can cover (the last day a four-digit year writes).
  public static let latest = CivilDate(daysSinceEpoch: 2_932_896)  // 9999-12-31

  /// - Throws: ``InputError`` when `to` is before `from` or either lies outside ``earliest``
  ///   through ``latest``.
  public init(from: CivilDate, to: CivilDate) throws(InputError) {
    guard from <= to else {
      throw InputError("--to (\(to)) is before --from (\(from)); swap them or widen the range")
    }
    guard from >= ReportRange.earliest, to <= ReportRange.latest else {
      throw InputError(
        "The range \(from) to \(to) reaches outside \(ReportRange.earliest) to \(ReportRange.latest); report on days in that span"
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
