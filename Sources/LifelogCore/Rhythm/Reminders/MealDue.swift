/// When the next meal is due: the last meal, the real time since it, and the instant the next one
/// is due by (`lifelog due`, `lifelog remind`).
///
/// The rules are the meal report's (``ReportSettings``): a day is a report day, beginning at
/// `dayStartsAt` on the wall clock where a meal was logged (for the last meal) or where the reader
/// is now (for today); a gap is the difference of two instants, so it is the real time lived
/// through across a DST change or a flight. A meal is due `mealGapHours` after the last one. Before
/// the day's first meal it is due `mealGapHours` after the day began, or after the last meal when
/// that is later (a late snack), so a night's sleep is never counted as an overdue gap.
public struct MealDue: Sendable {
  /// The meal the gap runs from, nil when no meal was ever logged before now.
  public let lastMeal: LoggedTime?
  /// Now, with the offset the reader's zone has.
  public let now: LoggedTime
  /// The instant the next meal is due by; nil when no meal was ever logged.
  public let dueAt: Int64?
  /// Whether no meal has been logged yet in the report day that holds now.
  public let isFirstOfDay: Bool
  /// The instant the current report day began (in the reader's zone).
  public let dayStartedAt: Int64
  /// The gap in force, in seconds (`mealGapHours`, kept within 0.5 to 24 hours).
  public let gapSeconds: Int64

  /// - Parameters:
  ///   - lastMeal: the latest meal at or before `now` (``LogStore/lastMeal(atOrBefore:)``).
  ///   - now: the current instant.
  ///   - zone: the reader's zone, which decides when today began.
  public init(lastMeal: LoggedTime?, now: Int64, settings: ReportSettings, zone: any TimeZoneRules)
  {
    self.lastMeal = lastMeal
    let nowTime = zone.loggedTime(at: now)
    self.now = nowTime
    // A synced setting is outside input: clamp it to the range `settings set` accepts, so the
    // arithmetic below can never overflow.
    let hours = settings.mealGapHours.isFinite ? min(max(settings.mealGapHours, 0.5), 24) : 3
    gapSeconds = Int64((hours * 3600).rounded())
    let today = settings.dayNumber(of: nowTime)
    dayStartedAt = MealDue.start(ofDay: today, settings: settings, zone: zone)
    guard let lastMeal else {
      dueAt = nil
      isFirstOfDay = true
      return
    }
    isFirstOfDay = settings.dayNumber(of: lastMeal) < today
    let afterLast = lastMeal.instant + gapSeconds
    dueAt = isFirstOfDay ? max(afterLast, dayStartedAt + gapSeconds) : afterLast
  }

  /// Whole minutes since the last meal (nil without one).
  public var sinceMinutes: Int? { lastMeal.map { Int((now.instant - $0.instant) / 60) } }

  /// Whole minutes past ``dueAt``; 0 when not overdue.
  public var overdueMinutes: Int {
    guard let dueAt, now.instant > dueAt else { return 0 }
    return Int((now.instant - dueAt) / 60)
  }

  /// Seconds until ``dueAt`` (negative once passed); nil without a meal.
  public var secondsUntilDue: Int64? { dueAt.map { $0 - now.instant } }

  /// The instant report day `day` begins in `zone`: `dayStartsAt` on that date's wall clock (the
  /// first instant after it when a DST change skipped it, the first of two when it repeated).
  static func start(ofDay day: Int64, settings: ReportSettings, zone: any TimeZoneRules) -> Int64 {
    let minutes = settings.dayStartsAtMinutes
    let local = LocalDateTime(
      date: CivilDate(daysSinceEpoch: day), hour: minutes / 60, minute: minutes % 60)
    switch zone.resolve(local) {
    case .unique(let instant), .repeated(let instant, _): return instant
    case .skipped:
      // The clocks jumped over this time: the day begins at the jump, the first minute that has
      // the offset in force after it (at most the size of the jump, a few hours, away).
      let wall = local.secondsAsIfUTC
      let after = zone.offsetSeconds(at: wall + 86_400)
      var instant = wall - Int64(after)
      var steps = 0
      while zone.offsetSeconds(at: instant) != after, steps < 24 * 60 {
        instant += 60
        steps += 1
      }
      return instant
    }
  }
}
