/// The meal diary: every meal of every day with the gap since the one before, gaps longer than
/// `mealGapHours` flagged, and a summary of the range (docs/design.md §5).
///
/// Plain values, no formatting: the text, Markdown, CSV, JSON and HTML renderers all read this.
/// Days and times of day are on the wall clock where each meal was logged (see
/// ``ReportSettings``); gaps are the real time that passed between two meals (the difference of
/// their instants), which is what the body lives through when the clocks change or the person
/// flies across time zones.
public struct MealReport: Sendable {
  public let range: ReportRange
  public let settings: ReportSettings
  /// The report's entries (all kinds, as ``ReportLog/entries``); a ``Meal`` points into them.
  public let entries: [Entry]
  /// One day per day of the range, in order; days without meals are kept, with no meals.
  public let days: [MealDay]
  public let summary: MealSummary
  /// The UTC offsets the report's entries were logged at.
  public let offsets: [LoggedOffset]

  /// Builds the report from `log`.
  ///
  /// - Parameter zone: the reader's zone; a meal logged at an offset it did not have then is
  ///   marked ``Meal/isAway``.
  public init(log: ReportLog, zone: any TimeZoneRules) {
    range = log.range
    settings = log.settings
    self.entries = log.entries
    let firstDay = log.range.from.daysSinceEpoch
    // Counted first, so each day's array is made once at its size.
    var counts = [Int](repeating: 0, count: log.range.dayCount)
    // Fields are read through the array (`entries[i].time`): copying whole entries in a loop
    // costs a retain and a release per string, which shows at 100,000 entries.
    let entries = log.entries
    for index in entries.indices where entries[index].kind == .meal {
      counts[Int(log.settings.dayNumber(of: entries[index].time) - firstDay)] += 1
    }
    var mealsByDay = counts.map { count -> [Meal] in
      var meals: [Meal] = []
      meals.reserveCapacity(count)
      return meals
    }
    var zoneOffsets = ZoneOffsetCache(zone: zone)
    for index in entries.indices where entries[index].kind == .meal {
      let time = entries[index].time
      let day = Int(log.settings.dayNumber(of: time) - firstDay)
      mealsByDay[day].append(
        Meal(
          entryIndex: index, time: time, minuteOfDay: log.settings.minuteOfDay(time),
          isAway: zoneOffsets.isAway(time)))
    }
    var days: [MealDay] = []
    days.reserveCapacity(mealsByDay.count)
    var previousLast = log.mealBefore?.time.instant
    for index in mealsByDay.indices {
      var meals: [Meal] = []
      swap(&meals, &mealsByDay[index])  // so the day's array is not copied when its gaps are set
      let last = meals.last?.time.instant
      days.append(
        MealDay(
          date: log.range.from.adding(days: index), meals: meals, previousMealAt: previousLast,
          gapLimitMinutes: log.settings.mealGapMinutes))
      previousLast = last
    }
    self.days = days
    summary = MealSummary(days: days)
    offsets = LoggedOffset.list(in: log, zone: zone)
  }
}

/// One report day of the meal diary.
public struct MealDay: Sendable {
  public let date: CivilDate
  /// The day's meals in the order they happened (by instant).
  public let meals: [Meal]
  /// Minutes from the previous day's last meal to this day's first.
  ///
  /// Nil when either day has no meal. Shown apart and never flagged.
  public let overnightGapMinutes: Int?
  /// The longest gap between two meals of this day; nil with fewer than two meals.
  public let longestGapMinutes: Int?
  /// The gaps longer than the limit, in order.
  public let flaggedGaps: [MealGap]

  /// - Parameters:
  ///   - meals: the day's meals, oldest first, without gaps yet.
  ///   - previousMealAt: the instant of the previous day's last meal, if it had one.
  init(date: CivilDate, meals: consuming [Meal], previousMealAt: Int64?, gapLimitMinutes: Double) {
    self.date = date
    var flagged: [MealGap] = []
    var longest: Int?
    for index in meals.indices.dropFirst() {
      let from = meals[index - 1].time
      let to = meals[index].time
      let minutes = Int((to.instant - from.instant) / 60)
      meals[index].gapMinutes = minutes
      longest = max(longest ?? minutes, minutes)
      if Double(minutes) > gapLimitMinutes {
        meals[index].isFlagged = true
        flagged.append(MealGap(minutes: minutes, mealIndex: index, from: from, to: to))
      }
    }
    if let first = meals.first, let previousMealAt, first.time.instant > previousMealAt {
      overnightGapMinutes = Int((first.time.instant - previousMealAt) / 60)
    } else {
      overnightGapMinutes = nil
    }
    self.meals = meals
    longestGapMinutes = longest
    flaggedGaps = flagged
  }

  /// Whether the day kept the rhythm: it has meals and no flagged gap.
  public var isOnRhythm: Bool { !meals.isEmpty && flaggedGaps.isEmpty }

  /// The first meal (the earliest by instant).
  public var firstMeal: Meal? { meals.first }

  /// The last meal (the latest by instant).
  public var lastMeal: Meal? { meals.last }

  /// The daytime gaps (between the day's meals), in order.
  public var gapMinutes: [Int] { meals.compactMap(\.gapMinutes) }
}

/// One meal in the diary: where its entry is, when it was, and its gap.
public struct Meal: Hashable, Sendable {
  /// The index of the meal's entry in ``MealReport/entries``.
  public let entryIndex: Int
  /// When it was logged (the entry's time).
  public let time: LoggedTime
  /// Minutes since the report day began, on the wall clock it was logged at (0 ..< 1440).
  ///
  /// Where the meal sits on a day's timeline.
  public let minuteOfDay: Int
  /// Minutes since the previous meal of the same day; nil for the day's first meal.
  public internal(set) var gapMinutes: Int?
  /// Whether ``gapMinutes`` is longer than `mealGapHours`.
  public internal(set) var isFlagged = false
  /// Logged at a UTC offset the reader's zone did not have at that instant (travel).
  public let isAway: Bool

  init(entryIndex: Int, time: LoggedTime, minuteOfDay: Int, isAway: Bool) {
    self.entryIndex = entryIndex
    self.time = time
    self.minuteOfDay = minuteOfDay
    self.isAway = isAway
  }
}

extension MealReport {
  /// The entry of `meal`: its id, activity and note.
  public func entry(of meal: Meal) -> Entry { entries[meal.entryIndex] }
}

/// A gap between two meals of one day that is longer than `mealGapHours`.
public struct MealGap: Hashable, Sendable {
  public let minutes: Int
  /// The index in ``MealDay/meals`` of the meal that ended the gap.
  public let mealIndex: Int
  /// When the meal before the gap was logged.
  public let from: LoggedTime
  /// When the meal after it was logged.
  public let to: LoggedTime
}
