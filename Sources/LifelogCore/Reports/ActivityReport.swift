/// Activity totals per activity and period (day, week or month) against their targets, and sleep
/// per night (docs/design.md §5).
///
/// Plain values, no formatting. Each entry counts to the report day of its logged wall-clock
/// time, like the meal diary. A target is compared with what the period's days inside the range
/// could hold: a `150 min/week` target over a week cut to 3 days by the range expects 3/7 of
/// 150 minutes, and one over a day expects 1/7 of it.
public struct ActivityReport: Sendable {
  public let range: ReportRange
  public let settings: ReportSettings
  /// How the range is divided.
  public let grouping: Target.Period
  public let periods: [ReportPeriod]
  /// Every activity with entries in the range, and every unarchived one with a target (even
  /// with no entries: 0% of a target is news): exercise, sleep, medication, other, then meals
  /// (the meal report covers those), each kind in the order the log lists it.
  public let activities: [ActivityTotals]
  /// One per day of the range, in order.
  public let nights: [SleepNight]
  public let sleep: SleepSummary
  /// The UTC offsets the report's entries were logged at.
  public let offsets: [LoggedOffset]

  /// Builds the report from `log`, all of whose entries are held.
  ///
  /// - Parameters:
  ///   - activities: the log's activities (names, kinds, units and targets); an entry whose
  ///     activity is not among them is reported under its own name and kind.
  ///   - zone: the reader's zone (for offsets and for when a night's sleep ended).
  public init(
    log: ReportLog, activities known: [Activity], by grouping: Target.Period,
    zone: any TimeZoneRules
  ) {
    var tally = ActivityAggregator(
      range: log.range, settings: log.settings, activities: known, by: grouping)
    var offsets = LoggedOffsetTally(settings: log.settings, zone: zone)
    for entry in log.entries {
      tally.add(entry)
      offsets.add(entry)
    }
    self.init(tally, offsets: offsets.offsets, zone: zone)
  }

  /// Builds the report from what `tally` added up as the entries were read.
  ///
  /// - Parameters:
  ///   - offsets: the offsets the range's entries were logged at (``LoggedOffsetTally``).
  ///   - zone: the reader's zone (for when a night's sleep ended).
  public init(_ tally: ActivityAggregator, offsets: [LoggedOffset], zone: any TimeZoneRules) {
    range = tally.range
    settings = tally.settings
    grouping = tally.grouping
    periods = tally.periods
    var totals: [ActivityTotals] = []
    for (activity, amounts) in zip(tally.activities, tally.amounts) {
      guard amounts != nil || (activity.target != nil && !activity.archived) else { continue }
      totals.append(
        ActivityTotals(
          activity: activity,
          periods: amounts ?? Array(repeating: ActivityAmount(), count: periods.count),
          periodRanges: periods))
    }
    let rank: [ActivityKind: Int] = [.exercise: 0, .sleep: 1, .medication: 2, .other: 3, .meal: 4]
    self.activities = totals.enumerated().sorted {
      (rank[$0.element.activity.kind] ?? 5, $0.offset) < (
        rank[$1.element.activity.kind] ?? 5, $1.offset
      )
    }.map(\.element)
    var zoneOffsets = ZoneOffsetCache(zone: zone)
    nights = tally.sleepsByDay.enumerated().map { index, sleeps in
      SleepNight(date: tally.range.from.adding(days: index), entries: sleeps, offsets: &zoneOffsets)
    }
    sleep = SleepSummary(nights: nights)
    self.offsets = offsets
  }
}

/// Adds up an activity report as its entries are read, one at a time: each activity's amounts
/// per period, and the sleep entries of each day (the only entries it holds, about one a night).
public struct ActivityAggregator {
  public let range: ReportRange
  public let settings: ReportSettings
  public let grouping: Target.Period
  /// The periods covering the range, in order.
  public let periods: [ReportPeriod]
  /// The known activities, then any met only in entries.
  private(set) var activities: [Activity]
  /// Per activity (as in ``activities``), its amounts per period; nil when it has no entries.
  private(set) var amounts: [[ActivityAmount]?]
  /// Per day of the range, the sleep entries that began that day.
  private(set) var sleepsByDay: [[Entry]]
  /// The period of each day of the range.
  private let periodOfDay: [Int32]
  private var indexByID: [String: Int] = [:]
  private let firstDay: Int64
  // Entries of one activity share one id string, so comparing with the last one is cheap.
  private var lastID = ""
  private var lastIndex = -1

  /// - Parameter known: the log's activities (names, kinds, units and targets).
  public init(
    range: ReportRange, settings: ReportSettings, activities known: [Activity],
    by grouping: Target.Period
  ) {
    self.range = range
    self.settings = settings
    self.grouping = grouping
    periods = ReportPeriod.covering(range, by: grouping, weekStartsOn: settings.weekStartsOn)
    activities = known
    amounts = Array(repeating: nil, count: known.count)
    sleepsByDay = Array(repeating: [], count: range.dayCount)
    var periodOfDay: [Int32] = []
    periodOfDay.reserveCapacity(range.dayCount)
    for (index, period) in periods.enumerated() {
      periodOfDay += repeatElement(Int32(truncatingIfNeeded: index), count: period.dayCount)
    }
    self.periodOfDay = periodOfDay
    for (index, activity) in known.enumerated() { indexByID[activity.id] = index }
    firstDay = range.from.daysSinceEpoch
  }

  /// Counts `entry`, whose report day must be in the range.
  public mutating func add(_ entry: Entry) {
    let day = Int(settings.dayNumber(of: entry.time) - firstDay)
    guard day >= 0 && day < periodOfDay.count else { return }
    if lastIndex < 0 || entry.activityID != lastID {
      lastID = entry.activityID
      lastIndex = indexByID[lastID] ?? addActivity(of: entry)
    }
    if amounts[lastIndex] == nil {
      amounts[lastIndex] = Array(repeating: ActivityAmount(), count: periods.count)
    }
    amounts[lastIndex]?[Int(periodOfDay[day])].add(
      duration: entry.duration, quantity: entry.quantity)
    if entry.kind == .sleep { sleepsByDay[day].append(entry) }
  }

  /// Adds the activity of `entry`, which the log does not list (yet), and returns its index.
  private mutating func addActivity(of entry: Entry) -> Int {
    indexByID[entry.activityID] = activities.count
    activities.append(
      Activity(id: entry.activityID, name: entry.activityName, kind: entry.kind, unit: entry.unit))
    amounts.append(nil)
    return activities.count - 1
  }
}

/// One activity's amounts, per period and over the range.
public struct ActivityTotals: Sendable {
  public let activity: Activity
  /// One per period of the report, in order.
  public let periods: [ActivityAmount]
  /// Over the whole range.
  public let total: ActivityAmount

  init(activity: Activity, periods: [ActivityAmount], periodRanges: [ReportPeriod]) {
    self.activity = activity
    var periods = periods
    var total = ActivityAmount()
    for index in periods.indices {
      total.merge(periods[index])
      if let target = activity.target {
        periods[index].compare(
          with: target, over: periodRanges[index].firstDay, periodRanges[index].lastDay)
      }
    }
    if let target = activity.target, let first = periodRanges.first, let last = periodRanges.last {
      total.compare(with: target, over: first.firstDay, last.lastDay)
    }
    self.periods = periods
    self.total = total
  }
}

/// What one activity added up to over some days, and how that compares with its target.
public struct ActivityAmount: Hashable, Sendable {
  /// Entries.
  public private(set) var count = 0
  /// Entries with a duration.
  public private(set) var timedCount = 0
  /// Their durations added up.
  public private(set) var durationSeconds = 0
  /// Entries with a quantity.
  public private(set) var quantityCount = 0
  /// Their quantities added up, in the activity's unit.
  public private(set) var quantity = 0.0
  /// The target for these days, in the target's measure (minutes, entries or its unit), spread
  /// over the days evenly; nil when the activity has no target.
  public private(set) var targetAmount: Double?
  /// What counts toward the target, in the same measure; nil without a target.
  public private(set) var achieved: Double?

  public init() {}

  /// ``achieved`` as a percentage of ``targetAmount``.
  public var percentReached: Double? {
    guard let targetAmount, let achieved, targetAmount > 0 else { return nil }
    return achieved / targetAmount * 100
  }

  mutating func add(duration: Int?, quantity value: Double?) {
    count += 1
    if let duration {
      timedCount += 1
      durationSeconds += duration
    }
    if let value {
      quantityCount += 1
      quantity += value
    }
  }

  mutating func merge(_ other: ActivityAmount) {
    count += other.count
    timedCount += other.timedCount
    durationSeconds += other.durationSeconds
    quantityCount += other.quantityCount
    quantity += other.quantity
  }

  /// Sets ``targetAmount`` to `target` spread over the days `first` through `last`, and
  /// ``achieved`` to the amount in the target's measure.
  mutating func compare(with target: Target, over first: CivilDate, _ last: CivilDate) {
    // Days counted per period length first, so a whole week expects exactly the amount.
    var daysByLength: [Int: Int] = [:]
    var day = first
    while day <= last {
      daysByLength[ReportPeriod.length(of: target.period, holding: day), default: 0] += 1
      day = day.adding(days: 1)
    }
    targetAmount = daysByLength.keys.sorted().reduce(0.0) { sum, length in
      sum + target.amount * Double(daysByLength[length] ?? 0) / Double(length)
    }
    switch target.measure {
    case .minutes: achieved = Double(durationSeconds) / 60
    case .count: achieved = Double(count)
    case .quantity: achieved = quantity
    }
  }
}
