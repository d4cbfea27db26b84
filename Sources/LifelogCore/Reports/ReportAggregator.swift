/// Builds the reports a command asks for in one pass over the log.
///
/// It holds only what they show: the meal diary's meals when a meal report is asked for, each day's sleep for the activity
/// report, every entry only when the output lists every entry (CSV of all kinds), and otherwise
/// counters. Entries are read a part at a time (``ReportEntryReader``), so memory follows what
/// is shown, not the size of the log.
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
    /// Hold every entry of the range, by day (``Built/entriesByDay``).
    public var keepsEntries: Bool

    public init(
      meals: Bool, mealAmounts: Bool, activities: [Activity]?, grouping: Target.Period,
      keepsEntries: Bool
    ) {
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
    /// Per day of the range, its entries oldest first, when asked for; empty otherwise.
    public let entriesByDay: [[Entry]]
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
    var entriesByDay: [[Entry]] =
      request.keepsEntries ? Array(repeating: [], count: range.dayCount) : []
    let firstDay = range.from.daysSinceEpoch
    let mealBefore = try reader.forEach { entry in
      offsets.add(entry)
      diary?.add(entry)
      tally?.add(entry)
      if request.keepsEntries {
        // The reader hands on only entries whose day is in the range.
        entriesByDay[Int(settings.dayNumber(of: entry.time) - firstDay)].append(entry)
      }
    }
    let offsetList = offsets.offsets
    return Built(
      range: range, settings: settings,
      meals: diary.map { MealReport($0, mealBefore: mealBefore, offsets: offsetList) },
      activity: tally.map { ActivityReport($0, offsets: offsetList, zone: zone) },
      entriesByDay: entriesByDay, offsets: offsetList)
  }
}
