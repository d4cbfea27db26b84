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
  /// The report's meal entries, oldest first; a ``Meal`` points into them (``entry(of:)``).
  public let entries: MealEntries
  /// One day per day of the range, in order; days without meals are kept, with no meals.
  public let days: [MealDay]
  public let summary: MealSummary
  /// The UTC offsets the report's entries were logged at.
  public let offsets: [LoggedOffset]

  /// Builds the report from `log`, all of whose entries are held.
  ///
  /// - Parameter zone: the reader's zone; a meal logged at an offset it did not have then is
  ///   marked ``Meal/isAway``.
  public init(log: ReportLog, zone: any TimeZoneRules) {
    var diary = MealDiaryAggregator(range: log.range, settings: log.settings, zone: zone)
    for entry in log.entries { diary.add(entry) }
    self.init(diary, mealBefore: log.mealBefore, offsets: LoggedOffset.list(in: log, zone: zone))
  }

  /// Builds the report from the meals `diary` collected as the entries were read.
  ///
  /// - Parameters:
  ///   - mealBefore: the last meal of the day before the range (``ReportEntryReader/forEach(_:)``).
  ///   - offsets: the offsets the range's entries (all kinds) were logged at.
  public init(_ diary: consuming MealDiaryAggregator, mealBefore: Entry?, offsets: [LoggedOffset]) {
    range = diary.range
    settings = diary.settings
    self.offsets = offsets
    var mealsByDay = diary.mealsByDay
    entries = diary.entries
    diary = MealDiaryAggregator(range: range, settings: settings, zone: diary.zone)
    var days: [MealDay] = []
    days.reserveCapacity(mealsByDay.count)
    var previousLast = mealBefore?.time.instant
    for index in mealsByDay.indices {
      var meals: [Meal] = []
      swap(&meals, &mealsByDay[index])  // so the day's array is not copied when its gaps are set
      let last = meals.last?.time.instant
      days.append(
        MealDay(
          date: range.from.adding(days: index), meals: meals, previousMealAt: previousLast,
          gapLimitMinutes: settings.mealGapMinutes))
      previousLast = last
    }
    self.days = days
    summary = MealSummary(days: days)
  }
}

/// Collects the meal diary as a report's entries are read, oldest first: each meal entry and
/// where it falls; entries of other kinds pass by without being held.
public struct MealDiaryAggregator {
  /// How many days before the latest meal's day can still get meals: entries come by instant,
  /// and a later one logged further west (offsets reach ±18 hours) can belong to the day before
  /// the latest or the one before that.
  static let openDays = 3

  public let range: ReportRange
  public let settings: ReportSettings
  let zone: any TimeZoneRules
  /// The meal entries, oldest first.
  private(set) var entries: MealEntries
  /// Per day of the range, its meals (gaps not set yet).
  private(set) var mealsByDay: [[Meal]]
  private var zoneOffsets: ZoneOffsetCache
  private let firstDay: Int64
  /// Days before this one are complete and trimmed (see ``trimDaysBefore(_:)``).
  private var trimmedBefore = 0

  /// - Parameters:
  ///   - zone: the reader's zone; a meal logged at an offset it did not have then is marked
  ///     ``Meal/isAway``.
  ///   - keepsAmounts: hold each meal's duration and quantity (only CSV shows them).
  public init(
    range: ReportRange, settings: ReportSettings, zone: any TimeZoneRules, keepsAmounts: Bool = true
  ) {
    entries = MealEntries(keepsAmounts: keepsAmounts)
    self.range = range
    self.settings = settings
    self.zone = zone
    mealsByDay = Array(repeating: [], count: range.dayCount)
    zoneOffsets = ZoneOffsetCache(zone: zone)
    firstDay = range.from.daysSinceEpoch
  }

  /// Takes `entry` into the diary when it is a meal whose report day is in the range.
  public mutating func add(_ entry: Entry) {
    guard entry.kind == .meal else { return }
    let time = entry.time
    let day = Int(settings.dayNumber(of: time) - firstDay)
    guard day >= 0 && day < mealsByDay.count else { return }
    trimDaysBefore(day - Self.openDays)
    mealsByDay[day].append(
      Meal(
        entryIndex: entries.count, time: time, minuteOfDay: settings.minuteOfDay(time),
        isAway: zoneOffsets.isAway(time)))
    entries.append(entry)
  }

  /// Copies each day before `day` that is not trimmed yet into an array of its own size: a day's
  /// meals grow by doubling, which would otherwise leave up to half of each array unused.
  private mutating func trimDaysBefore(_ day: Int) {
    while trimmedBefore < min(day, mealsByDay.count) {
      let meals = mealsByDay[trimmedBefore]
      if meals.capacity > meals.count {
        var trimmed: [Meal] = []
        trimmed.reserveCapacity(meals.count)
        trimmed.append(contentsOf: meals)
        mealsByDay[trimmedBefore] = trimmed
      }
      trimmedBefore += 1
    }
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
///
/// Held in 24 bytes (narrow stored fields behind the public ones): a diary over a million meals
/// holds a million of these.
public struct Meal: Hashable, Sendable {
  private let instant: Int64
  private let storedEntryIndex: Int32
  private var storedGap: Int32 = 0
  private let storedOffset: Int16
  private let storedMinute: Int16
  private var hasGap = false
  /// Whether ``gapMinutes`` is longer than `mealGapHours`.
  public internal(set) var isFlagged = false
  /// Logged at a UTC offset the reader's zone did not have at that instant (travel).
  public let isAway: Bool

  /// The index of the meal's entry in ``MealReport/entries``.
  public var entryIndex: Int { Int(storedEntryIndex) }
  /// When it was logged (the entry's time).
  public var time: LoggedTime {
    LoggedTime(instant: instant, offsetMinutes: Int(storedOffset))
  }
  /// Minutes since the report day began, on the wall clock it was logged at (0 ..< 1440).
  ///
  /// Where the meal sits on a day's timeline.
  public var minuteOfDay: Int { Int(storedMinute) }
  /// Minutes since the previous meal of the same day; nil for the day's first meal.
  public internal(set) var gapMinutes: Int? {
    get { hasGap ? Int(storedGap) : nil }
    set {
      hasGap = newValue != nil
      storedGap = Int32(clamping: newValue ?? 0)
    }
  }

  /// `time`'s offset is at most ±18 hours (``LoggedTime``), `minuteOfDay` under 1440, and a gap
  /// within one report day under a few thousand minutes: each fits its narrow field.
  init(entryIndex: Int, time: LoggedTime, minuteOfDay: Int, isAway: Bool) {
    instant = time.instant
    storedEntryIndex = Int32(clamping: entryIndex)
    storedOffset = Int16(clamping: time.offsetMinutes)
    storedMinute = Int16(clamping: minuteOfDay)
    self.isAway = isAway
  }
}

extension MealReport {
  /// The entry of `meal`: its id, activity and note.
  public func entry(of meal: Meal) -> Entry { entries.entry(at: meal.entryIndex, time: meal.time) }

  /// The activity name of `meal`'s entry, without building the whole entry.
  public func activityName(of meal: Meal) -> String { entries.activityName(at: meal.entryIndex) }

  /// The note of `meal`'s entry, without building the whole entry.
  public func note(of meal: Meal) -> String? { entries.note(at: meal.entryIndex) }
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
