/// Builds the reports a command asks for in one pass over the log.
///
/// It holds only what they show: the meal diary's meals when a meal report is asked for, each
/// day's sleep for the activity report, and otherwise counters. Entries are read a part at a
/// time (``ReportEntryReader``), so memory follows what is shown, not the size of the log. The
/// outputs that can be written a day at a time (CSV, JSON's days) do not hold the diary either:
/// ``stream(_:from:zone:day:)`` hands each day on as it closes.
public struct ReportAggregator {
  /// What to build.
  public struct Request {
    /// Build the meal diary.
    public var meals: Bool
    /// Hold each meal's duration and quantity (only CSV shows them).
    public var mealAmounts: Bool
    /// Build the activity report with these activities (nil: no activity report).
    public var activities: [Activity]?
    public var grouping: Target.Period
    /// Hand every entry of a day on with it, not only its meals (``stream(_:from:zone:day:)``).
    public var keepsEntries: Bool
    /// Whether a streamed report counts the meal sheet (``MealSheet``).
    public var countsSheet: Bool

    public init(
      meals: Bool, mealAmounts: Bool = false, activities: [Activity]?, grouping: Target.Period,
      keepsEntries: Bool = false, countsSheet: Bool = false
    ) {
      self.countsSheet = countsSheet
      self.meals = meals
      self.mealAmounts = mealAmounts
      self.activities = activities
      self.grouping = grouping
      self.keepsEntries = keepsEntries
    }
  }

  /// The reports built.
  public struct Built {
    public let range: ReportRange
    public let settings: ReportSettings
    public let meals: MealReport?
    public let activity: ActivityReport?
    /// The UTC offsets the range's entries were logged at.
    public let offsets: [LoggedOffset]
  }

  /// Reads the range `reader` covers and builds what `request` asks for.
  ///
  /// - Parameter zone: the reader's zone (offsets, away meals, when a night ended).
  public static func build(
    _ request: Request, from reader: ReportEntryReader, zone: any TimeZoneRules
  ) throws -> Built {
    let range = reader.range
    let settings = reader.settings
    var diary =
      request.meals
      ? MealDiaryAggregator(
        range: range, settings: settings, zone: zone, keepsAmounts: request.mealAmounts) : nil
    var tally = request.activities.map {
      ActivityAggregator(range: range, settings: settings, activities: $0, by: request.grouping)
    }
    var offsets = LoggedOffsetTally(settings: settings, zone: zone)
    let mealBefore = try reader.forEach { entry in
      offsets.add(entry)
      diary?.add(entry)
      tally?.add(entry)
    }
    let offsetList = offsets.offsets
    return Built(
      range: range, settings: settings,
      meals: diary.map { MealReport($0, mealBefore: mealBefore, offsets: offsetList) },
      activity: tally.map { ActivityReport($0, offsets: offsetList, zone: zone) },
      offsets: offsetList)
  }

  /// What ``stream(_:from:zone:day:)`` leaves once every day is handed on.
  public struct Streamed {
    public let range: ReportRange
    public let settings: ReportSettings
    /// The meal diary's summary, as ``MealReport/summary`` gives it.
    public let summary: MealSummary
    /// The meal sheet of the streamed days, counted as they closed (when the request asked).
    public let sheet: MealSheet?
    public let activity: ActivityReport?
    public let offsets: [LoggedOffset]
  }

  /// Reads the range `reader` covers and hands the meal diary to `day` a day at a time, in order,
  /// every day of the range (``MealDayStream``), with its meals or, when `request` keeps entries,
  /// every entry; builds the activity report when `request` asks for it (`request.meals` is
  /// taken as asked).
  public static func stream(
    _ request: Request, from reader: ReportEntryReader, zone: any TimeZoneRules,
    day: (ClosedMealDay) throws -> Void
  ) throws -> Streamed {
    let range = reader.range
    let settings = reader.settings
    var days = MealDayStream(
      range: range, settings: settings, zone: zone, keepsEveryEntry: request.keepsEntries,
      countsSheet: request.countsSheet)
    var tally = request.activities.map {
      ActivityAggregator(range: range, settings: settings, activities: $0, by: request.grouping)
    }
    var offsets = LoggedOffsetTally(settings: settings, zone: zone)
    try reader.forEach(mealsBefore: { days.mealBefore($0) }) { entry in
      offsets.add(entry)
      tally?.add(entry)
      try days.add(entry, closed: day)
    }
    let summary = try days.finish(closed: day)
    let offsetList = offsets.offsets
    return Streamed(
      range: range, settings: settings, summary: summary, sheet: days.sheet,
      activity: tally.map { ActivityReport($0, offsets: offsetList, zone: zone) },
      offsets: offsetList)
  }

  /// The UTC offsets the range's entries were logged at, in the order they first occur: a pass
  /// of its own, without ids or notes, for an output that names them before the days (JSON).
  public static func offsets(
    from reader: ReportEntryReader, zone: any TimeZoneRules
  ) throws
    -> [LoggedOffset]
  {
    var offsets = LoggedOffsetTally(settings: reader.settings, zone: zone)
    try reader.reading(fields: []).forEach { offsets.add($0) }
    return offsets.offsets
  }
}
