/// The meal diary: every meal of every day with the gap since the one before, gaps shorter than
/// `mealGapMinHours` or longer than `mealGapHours` flagged (``MealGapFlag``), and a summary of the range (docs/design.md §5).
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
  /// One day per day of the range, in order; days without meals are there, with no meals, but
  /// are made when read (``MealDays``), so the diary holds only the days that have meals.
  public let days: MealDays
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
    var held = diary.heldDays
    entries = diary.entries
    diary = MealDiaryAggregator(range: range, settings: settings, zone: diary.zone)
    var days: [MealDay] = []
    var positions: [Int] = []
    days.reserveCapacity(held.count)
    positions.reserveCapacity(held.count)
    // The day before the range is position -1: its last meal is `mealBefore`'s.
    var previous = (position: -1, lastMealAt: mealBefore?.time.instant)
    for index in held.indices {
      var meals: [Meal] = []
      swap(&meals, &held[index].meals)  // so the day's array is not copied when its gaps are set
      let position = held[index].position
      let last = meals.last?.time.instant
      days.append(
        MealDay(
          date: range.from.adding(days: position), meals: meals,
          previousMealAt: previous.position == position - 1 ? previous.lastMealAt : nil,
          settings: settings))
      positions.append(position)
      previous = (position, last)
    }
    self.days = MealDays(range: range, withMeals: days, positions: positions)
    summary = MealSummary(days: self.days, unfinishedFrom: settings.today)
  }
}

/// The days of a meal diary, one per day of its range, in order.
///
/// Only the days that have meals are held; a day without meals is made when it is read (it has
/// no meals, gaps or overnight gap), so a diary over the whole calendar (1900 to 9999, some
/// three million days) holds what its entries need, not a day per day of the range.
public struct MealDays: RandomAccessCollection, Sendable {
  public let range: ReportRange
  /// The days that have meals, in order.
  public let withMeals: [MealDay]
  /// The position in the range of each of ``withMeals``, ascending.
  public let positionsWithMeals: [Int]

  init(range: ReportRange, withMeals: [MealDay], positions: [Int]) {
    self.range = range
    self.withMeals = withMeals
    positionsWithMeals = positions
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { range.dayCount }

  /// The day at `position` in the range.
  public subscript(position: Int) -> MealDay {
    if let held = heldIndex(of: position) { return withMeals[held] }
    return MealDay(withoutMealsOn: date(at: position))
  }

  /// The date of the day at `position`, without making the day.
  public func date(at position: Int) -> CivilDate { range.from.adding(days: position) }

  /// Where `position` is in ``positionsWithMeals``, or nil when that day has no meals.
  private func heldIndex(of position: Int) -> Int? {
    var low = 0
    var high = positionsWithMeals.count
    while low < high {
      let middle = low + (high - low) / 2
      if positionsWithMeals[middle] < position { low = middle + 1 } else { high = middle }
    }
    return low < positionsWithMeals.count && positionsWithMeals[low] == position ? low : nil
  }

  public func makeIterator() -> Iterator { Iterator(days: self) }

  /// Walks the days in order, stepping through the held ones instead of searching for each.
  public struct Iterator: IteratorProtocol {
    let days: MealDays
    var position = 0
    var nextHeld = 0

    public mutating func next() -> MealDay? {
      guard position < days.endIndex else { return nil }
      defer { position += 1 }
      if nextHeld < days.positionsWithMeals.count && days.positionsWithMeals[nextHeld] == position {
        nextHeld += 1
        return days.withMeals[nextHeld - 1]
      }
      return MealDay(withoutMealsOn: days.date(at: position))
    }
  }
}

/// Collects the meal diary as a report's entries are read, oldest first: each meal entry and
/// where it falls; entries of other kinds pass by without being held.
public struct MealDiaryAggregator {
  /// How many days before the latest meal's day can still get meals: entries come by instant,
  /// and a later one logged further west (offsets reach ±18 hours) can belong to the day before
  /// the latest or the one before that.
  static let openDays = 3

  /// A day that has meals: its position in the range and its meals (gaps not set yet).
  struct HeldDay {
    let position: Int
    var meals: [Meal]
  }

  public let range: ReportRange
  public let settings: ReportSettings
  let zone: any TimeZoneRules
  /// The meal entries, oldest first.
  private(set) var entries: MealEntries
  /// The days that have meals so far, in order: a day without meals is not held at all.
  private(set) var heldDays: [HeldDay] = []
  private var zoneOffsets: ZoneOffsetCache
  private let firstDay: Int64
  /// The held days before this index are complete and trimmed (see ``trimDaysBefore(_:)``).
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
    zoneOffsets = ZoneOffsetCache(zone: zone)
    firstDay = range.from.daysSinceEpoch
  }

  /// How many days with meals are held (a test's measure of what the diary holds).
  public var heldDayCount: Int { heldDays.count }

  /// Takes `entry` into the diary when it is a meal whose report day is in the range.
  public mutating func add(_ entry: Entry) {
    guard entry.kind == .meal else { return }
    let time = entry.time
    let day = Int(clamping: settings.dayNumber(of: time) - firstDay)
    guard day >= 0 && day < range.dayCount else { return }
    trimDaysBefore(day - Self.openDays)
    let slot = slot(ofDay: day)
    heldDays[slot].meals.append(
      Meal(
        entryIndex: entries.count, time: time, minuteOfDay: settings.minuteOfDay(time),
        isAway: zoneOffsets.isAway(time)))
    entries.append(entry)
  }

  /// Where day `day` is in ``heldDays``, adding it (in order) when it has no meal yet.
  ///
  /// Almost always the last day or a new one after it; an entry of an earlier day (logged
  /// further west) is found by bisection.
  private mutating func slot(ofDay day: Int) -> Int {
    if let last = heldDays.last, last.position == day { return heldDays.count - 1 }
    if heldDays.last.map({ $0.position < day }) ?? true {
      heldDays.append(HeldDay(position: day, meals: []))
      return heldDays.count - 1
    }
    var low = 0
    var high = heldDays.count
    while low < high {
      let middle = low + (high - low) / 2
      if heldDays[middle].position < day { low = middle + 1 } else { high = middle }
    }
    if heldDays[low].position == day { return low }
    heldDays.insert(HeldDay(position: day, meals: []), at: low)
    if low < trimmedBefore { trimmedBefore += 1 }
    return low
  }

  /// Copies each held day before `day` that is not trimmed yet into an array of its own size: a
  /// day's meals grow by doubling, which would otherwise leave up to half of each array unused.
  private mutating func trimDaysBefore(_ day: Int) {
    while trimmedBefore < heldDays.count && heldDays[trimmedBefore].position < day {
      let meals = heldDays[trimmedBefore].meals
      if meals.capacity > meals.count {
        var trimmed: [Meal] = []
        trimmed.reserveCapacity(meals.count)
        trimmed.append(contentsOf: meals)
        heldDays[trimmedBefore].meals = trimmed
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
  /// How many gaps are outside the rule (too short or too long), and how many of those are
  /// too short.
  ///
  /// Counts, not a list: each meal keeps its own gap and flag, and a diary whose gaps are
  /// nearly all flagged (a snack every few minutes) would otherwise hold a second record per
  /// meal, some 50 bytes each.
  public let flaggedGapCount: Int
  public let shortGapCount: Int

  /// A day without meals: no gaps, no overnight gap.
  init(withoutMealsOn date: CivilDate) {
    self.date = date
    meals = []
    overnightGapMinutes = nil
    longestGapMinutes = nil
    flaggedGapCount = 0
    shortGapCount = 0
  }

  /// - Parameters:
  ///   - meals: the day's meals, oldest first, without gaps yet.
  ///   - previousMealAt: the instant of the previous day's last meal, if it had one.
  init(date: CivilDate, meals: consuming [Meal], previousMealAt: Int64?, settings: ReportSettings) {
    self.date = date
    var flagged = 0
    var short = 0
    var longest: Int?
    for index in meals.indices.dropFirst() {
      let minutes = Int((meals[index].time.instant - meals[index - 1].time.instant) / 60)
      meals[index].gapMinutes = minutes
      longest = max(longest ?? minutes, minutes)
      if let flag = settings.gapFlag(minutes: minutes) {
        meals[index].gapFlag = flag
        flagged += 1
        if flag.isShort { short += 1 }
      }
    }
    if let first = meals.first, let previousMealAt, first.time.instant > previousMealAt {
      overnightGapMinutes = Int((first.time.instant - previousMealAt) / 60)
    } else {
      overnightGapMinutes = nil
    }
    self.meals = meals
    longestGapMinutes = longest
    flaggedGapCount = flagged
    shortGapCount = short
  }

  /// The gaps outside the rule (too short or too long), in order, read from the meals when
  /// asked for.
  public var flaggedGaps: [MealGap] {
    var gaps: [MealGap] = []
    gaps.reserveCapacity(flaggedGapCount)
    for index in meals.indices.dropFirst() {
      guard let flag = meals[index].gapFlag, let minutes = meals[index].gapMinutes else { continue }
      gaps.append(
        MealGap(
          minutes: minutes, mealIndex: index, from: meals[index - 1].time, to: meals[index].time,
          flag: flag))
    }
    return gaps
  }

  /// Whether the day kept the rhythm: it has meals and no flagged gap.
  public var isOnRhythm: Bool { !meals.isEmpty && flaggedGapCount == 0 }

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
  private var storedFlag: UInt8 = 0
  /// Logged at a UTC offset the reader's zone did not have at that instant (travel).
  public let isAway: Bool

  /// How ``gapMinutes`` stands against the rule; nil when it keeps it (or there is no gap).
  public internal(set) var gapFlag: MealGapFlag? {
    get { MealGapFlag(rawValue: storedFlag) }
    set { storedFlag = newValue?.rawValue ?? 0 }
  }
  /// Whether ``gapMinutes`` is outside the rule: shorter than `mealGapMinHours` or longer than
  /// `mealGapHours`.
  public var isFlagged: Bool { storedFlag != 0 }

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

/// A gap between two meals of one day that is outside the rule (``MealGapFlag``).
public struct MealGap: Hashable, Sendable {
  public let minutes: Int
  /// The index in ``MealDay/meals`` of the meal that ended the gap.
  public let mealIndex: Int
  /// When the meal before the gap was logged.
  public let from: LoggedTime
  /// When the meal after it was logged.
  public let to: LoggedTime
  /// How it stands against the rule.
  public let flag: MealGapFlag
}
