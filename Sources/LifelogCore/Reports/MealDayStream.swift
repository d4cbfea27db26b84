/// The meal diary handed on a day at a time, as a report's entries are read: for the outputs
/// that list every meal or every entry but need nothing of a later day to write a day (CSV, and
/// the days of JSON), so a report over a million entries holds a few days, not the diary.
///
/// Entries come by instant, oldest first, and a day is complete once an entry four days later
/// has been read: an entry read later (a later instant) logged further west belongs at most two
/// days before the latest one (offsets reach ±18 hours). Each day is then handed on with the gaps
/// of ``MealDay`` and counted into the summary, which is the same as ``MealReport``'s.
public struct MealDayStream {
  /// How many days before the latest entry's day stay open; one more than the two that the
  /// widest span of offsets (36 hours) can reach back.
  static let openDays = 3

  public let range: ReportRange
  public let settings: ReportSettings
  /// Whether a closed day carries every entry of the day, or only its meals.
  public let keepsEveryEntry: Bool
  private var zoneOffsets: ZoneOffsetCache
  private let firstDay: Int64
  /// The index (days after the range's first) of the first day not handed on yet.
  private var nextDay = 0
  /// The days from ``nextDay`` on that have entries so far.
  private var open: [ClosedMealDay.Parts] = []
  /// The instant of the last meal of the day before ``nextDay`` (nil if that day had none).
  private var previousLast: Int64?
  private var summary: MealSummary.Tally
  /// Counted only for a report that shows the sheet: the notes' words cost time and memory.
  private var sheetTally: MealSheet.Tally?

  /// - Parameters:
  ///   - zone: the reader's zone; a meal logged at an offset it did not have then is marked
  ///     ``Meal/isAway``.
  ///   - keepsEveryEntry: hand on every entry of a day with it (CSV of all kinds), not only its
  ///     meals.
  public init(
    range: ReportRange, settings: ReportSettings, zone: any TimeZoneRules, keepsEveryEntry: Bool,
    countsSheet: Bool = false
  ) {
    sheetTally = countsSheet ? MealSheet.Tally() : nil
    self.range = range
    self.settings = settings
    self.keepsEveryEntry = keepsEveryEntry
    summary = MealSummary.Tally(unfinishedFrom: settings.today)
    zoneOffsets = ZoneOffsetCache(zone: zone)
    firstDay = range.from.daysSinceEpoch
  }

  /// Takes the last meal of the day before the range (``ReportEntryReader``'s meal before) into
  /// the first day's overnight gap; called before that day closes.
  public mutating func mealBefore(_ entry: Entry) {
    guard nextDay == 0 else { return }
    previousLast = max(previousLast ?? entry.time.instant, entry.time.instant)
  }

  /// Takes `entry`, whose report day is in the range, and hands on each day it completes.
  ///
  /// An entry of a day already handed on (only an offset beyond ±18 hours, which nothing lifelog
  /// writes holds, can bring one) is left out, as the reader's window leaves such entries out at
  /// the range's ends.
  public mutating func add(_ entry: Entry, closed: (ClosedMealDay) throws -> Void) rethrows {
    let day = Int(clamping: settings.dayNumber(of: entry.time) - firstDay)
    guard day >= nextDay && day < range.dayCount else { return }
    if day - Self.openDays > nextDay { try close(before: day - Self.openDays, closed) }
    let isMeal = entry.kind == .meal
    guard isMeal || keepsEveryEntry else { return }
    let slot = day - nextDay
    while open.count <= slot { open.append(ClosedMealDay.Parts()) }
    if isMeal {
      let time = entry.time
      open[slot].meals.append(
        Meal(
          entryIndex: open[slot].entries.count, time: time,
          minuteOfDay: settings.minuteOfDay(time), isAway: zoneOffsets.isAway(time)))
    }
    open[slot].entries.append(entry)
  }

  /// The sheet (``MealSheet``) of the days closed so far: every day once ``finish(closed:)``
  /// has run; nil unless made with `countsSheet`.
  public var sheet: MealSheet? { sheetTally.map(MealSheet.init) }

  /// Hands on every day left, through the range's last, and gives the summary of all of them.
  public mutating func finish(closed: (ClosedMealDay) throws -> Void) rethrows -> MealSummary {
    try close(before: range.dayCount, closed)
    return MealSummary(summary)
  }

  /// Hands on the days before `day` (an index in the range) that are not handed on yet.
  private mutating func close(before day: Int, _ closed: (ClosedMealDay) throws -> Void) rethrows {
    while nextDay < min(day, range.dayCount) {
      var parts = ClosedMealDay.Parts()
      if !open.isEmpty { parts = open.removeFirst() }
      let last = parts.meals.last?.time.instant
      let mealDay = MealDay(
        date: range.from.adding(days: nextDay), meals: parts.meals, previousMealAt: previousLast,
        settings: settings)
      previousLast = last
      nextDay += 1
      summary.add(mealDay)
      sheetTally?.add(mealDay) { parts.entries[$0.entryIndex].note }
      try closed(ClosedMealDay(day: mealDay, entries: parts.entries))
    }
  }
}

/// A day of the meal diary handed on by ``MealDayStream``, with its entries.
public struct ClosedMealDay {
  public let day: MealDay
  /// The day's entries oldest first: its meal entries, or every entry when the stream keeps
  /// every entry.
  ///
  /// ``Meal/entryIndex`` of the day's meals points into them.
  public let entries: [Entry]

  /// A day's meals and entries while it is open.
  struct Parts {
    var meals: [Meal] = []
    var entries: [Entry] = []
  }

  /// The entry of `meal`, one of the day's meals.
  public func entry(of meal: Meal) -> Entry { entries[meal.entryIndex] }
}
