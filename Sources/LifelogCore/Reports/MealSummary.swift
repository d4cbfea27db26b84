/// The meal diary over the whole range: how many meals, how long the gaps, which days kept the
/// rhythm.
///
/// Gap figures cover daytime gaps only (between meals of one day); overnight gaps are left out.
public struct MealSummary: Hashable, Sendable {
  /// Finished days in the range (the summary counts only these; see ``unfinishedDays``).
  public let days: Int
  /// Days of the range not over yet (today, and any after it): their meals and gaps count, but
  /// they are no day of the figures per day (days, meals per day, first and last meal, rhythm).
  public let unfinishedDays: Int
  public let daysWithMeals: Int
  public let daysWithoutMeals: Int
  public let meals: Int
  /// Meals of the finished days over those days (days without meals count as days).
  public let mealsPerDay: Double
  /// How many daytime gaps there are.
  public let gapCount: Int
  /// The median daytime gap (with an even count, the mean of the middle two, rounded down).
  public let medianGapMinutes: Int?
  /// The mean daytime gap, rounded to the nearest minute.
  public let averageGapMinutes: Int?
  public let longestGapMinutes: Int?
  /// The day of the longest gap (the first such day when several tie).
  public let longestGapDate: CivilDate?
  /// How many gaps were outside the rule: ``shortGaps`` plus ``longGaps``.
  public let flaggedGaps: Int
  /// How many gaps were shorter than `mealGapMinHours`.
  public let shortGaps: Int
  /// How many gaps were longer than `mealGapHours`.
  public let longGaps: Int
  /// The median time of the day's first meal, as minutes since the day began (see
  /// ``Meal/minuteOfDay``); ``ReportSettings/clockMinute(ofMinuteOfDay:)`` turns it into a time.
  public let typicalFirstMealMinute: Int?
  /// The median time of the day's last meal, likewise.
  public let typicalLastMealMinute: Int?
  /// Days with meals and no flagged gap.
  public let daysOnRhythm: Int

  init(days: some Sequence<MealDay>, unfinishedFrom: CivilDate?) {
    var tally = Tally(unfinishedFrom: unfinishedFrom)
    for day in days { tally.add(day) }
    self.init(tally)
  }

  /// The summary of the days `tally` counted.
  init(_ tally: Tally) {
    days = tally.days
    unfinishedDays = tally.unfinished
    daysWithMeals = tally.firsts.count
    daysWithoutMeals = tally.days - tally.firsts.count
    meals = tally.meals
    mealsPerDay = tally.days == 0 ? 0 : Double(tally.finishedMeals) / Double(tally.days)
    gapCount = tally.gaps.count
    medianGapMinutes = tally.gaps.median
    averageGapMinutes =
      tally.gaps.count == 0
      ? nil : Int((Double(tally.gaps.sum) / Double(tally.gaps.count)).rounded())
    longestGapMinutes = tally.longest?.minutes
    longestGapDate = tally.longest?.date
    flaggedGaps = tally.short + tally.long
    shortGaps = tally.short
    longGaps = tally.long
    typicalFirstMealMinute = tally.firsts.median
    typicalLastMealMinute = tally.lasts.median
    daysOnRhythm = tally.onRhythm
  }

  /// The summary's figures counted a day at a time, in the range's order: a fixed few hundred
  /// kilobytes however many days and meals (``MealDayStream`` hands days on and forgets them).
  struct Tally {
    /// The first unfinished day (``ReportSettings/today``): it and later days are no day of the
    /// figures per day.
    let unfinishedFrom: CivilDate?
    private(set) var unfinished = 0
    private(set) var days = 0
    private(set) var meals = 0
    private(set) var finishedMeals = 0
    private(set) var short = 0
    private(set) var long = 0
    private(set) var onRhythm = 0
    private(set) var gaps = MinuteCounts()
    /// The minute of the day (``Meal/minuteOfDay``) of each day's first and last meal.
    private(set) var firsts = MinuteCounts()
    private(set) var lasts = MinuteCounts()
    /// The longest gap and its day (the first such day when several tie).
    private(set) var longest: (minutes: Int, date: CivilDate)?

    init(unfinishedFrom: CivilDate?) { self.unfinishedFrom = unfinishedFrom }

    mutating func add(_ day: MealDay) {
      meals += day.meals.count
      short += day.shortGapCount
      long += day.flaggedGapCount - day.shortGapCount
      if let unfinishedFrom, day.date >= unfinishedFrom {
        unfinished += 1
      } else {
        days += 1
        finishedMeals += day.meals.count
        if day.isOnRhythm { onRhythm += 1 }
        if let first = day.firstMeal, let last = day.lastMeal {
          firsts.add(first.minuteOfDay)
          lasts.add(last.minuteOfDay)
        }
      }
      for meal in day.meals {
        guard let gap = meal.gapMinutes else { continue }
        gaps.add(gap)
        if gap > (longest?.minutes ?? -1) { longest = (gap, day.date) }
      }
    }
  }

  /// The median of values given as how many times each occurs (`counts[v]` times `v`), `total`
  /// in all.
  static func median(counts: [Int], total: Int) -> Int? {
    var seen = 0
    var lower: Int?
    for (value, count) in counts.enumerated() where count > 0 {
      if lower == nil, seen + count > (total - 1) / 2 { lower = value }
      seen += count
      if let lower, seen > total / 2 {
        return ReportSettings.floorDivInt(lower + value, 2)
      }
    }
    return nil
  }

  /// The median of `values`: the middle one, or the mean of the middle two rounded down.
  static func median(_ values: [Int]) -> Int? {
    guard !values.isEmpty else { return nil }
    // Gaps and times of day are minutes, mostly under a day: counting them beats sorting them.
    if let largest = values.max(), largest < 4 * 1440, values.allSatisfy({ $0 >= 0 }) {
      var counts = [Int](repeating: 0, count: largest + 1)
      for value in values { counts[value] += 1 }
      if let median = median(counts: counts, total: values.count) { return median }
    }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    if sorted.count % 2 == 1 { return sorted[middle] }
    return ReportSettings.floorDivInt(sorted[middle - 1] + sorted[middle], 2)
  }
}

/// Minutes (the meal gaps of a whole range) counted instead of listed.
///
/// A million gaps take a fixed 46 KB, not 8 MB. A value outside 0 ..< 4 days, which a gap within one day never is, is
/// listed apart and the median then falls back to sorting them all.
struct MinuteCounts {
  private static let limit = 4 * 1440
  private var counts = [Int](repeating: 0, count: MinuteCounts.limit)
  private var outside: [Int] = []
  private(set) var count = 0
  private(set) var sum = 0

  mutating func add(_ minutes: Int) {
    if minutes >= 0 && minutes < Self.limit {
      counts[minutes] += 1
    } else {
      outside.append(minutes)
    }
    count += 1
    sum &+= minutes
  }

  /// As ``MealSummary/median(_:)`` gives it for the same values.
  var median: Int? {
    guard count > 0 else { return nil }
    guard outside.isEmpty else {
      var values = outside
      for (value, times) in counts.enumerated() where times > 0 {
        values += repeatElement(value, count: times)
      }
      return MealSummary.median(values)
    }
    return MealSummary.median(counts: counts, total: count)
  }
}
