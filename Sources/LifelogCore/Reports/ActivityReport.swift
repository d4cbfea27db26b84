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
  /// Made when asked for, not held (a period each over the whole calendar would be millions).
  public let periods: ReportPeriods
  /// Every activity with entries in the range, and every unarchived one with a target (even
  /// with no entries: 0% of a target is news): exercise, sleep, medication, other, then meals
  /// (the meal report covers those), each kind in the order the log lists it.
  public let activities: [ActivityTotals]
  /// One per day of the range, in order; only the nights with sleep entries are held.
  public let nights: SleepNights
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
          periods: amounts ?? PeriodTally(), periodRanges: periods))
    }
    let rank: [ActivityKind: Int] = [.exercise: 0, .sleep: 1, .medication: 2, .other: 3, .meal: 4]
    self.activities = totals.enumerated().sorted {
      (rank[$0.element.activity.kind] ?? 5, $0.offset) < (
        rank[$1.element.activity.kind] ?? 5, $1.offset
      )
    }.map(\.element)
    var zoneOffsets = ZoneOffsetCache(zone: zone)
    let logged = tally.sleepsByDay.keys.sorted().map { index in
      SleepNight(
        date: tally.range.from.adding(days: index), entries: tally.sleepsByDay[index] ?? [],
        offsets: &zoneOffsets)
    }
    nights = SleepNights(range: tally.range, logged: logged)
    sleep = SleepSummary(nights: tally.range.dayCount, logged: logged)
    self.offsets = offsets
  }
}

/// Adds up an activity report as its entries are read, one at a time: each activity's amounts
/// per period, and the sleep entries of each day (the only entries it holds, about one a night).
///
/// It holds only the periods and days that have entries: what it holds grows with the entries
/// read, never with the length of the range (a report over 1900-01-01 to 9999-12-31 holds as
/// little as one over a week with the same entries).
public struct ActivityAggregator {
  public let range: ReportRange
  public let settings: ReportSettings
  public let grouping: Target.Period
  /// The periods covering the range, in order.
  public let periods: ReportPeriods
  /// The known activities, then any met only in entries.
  private(set) var activities: [Activity]
  /// Per activity (as in ``activities``), its amounts per period with entries; nil when it has
  /// no entries.
  private(set) var amounts: [PeriodTally?]
  /// By day of the range (0 is its first), the sleep entries that began that day; only days
  /// with sleep entries.
  private(set) var sleepsByDay: [Int: [Entry]] = [:]
  // Entries come in time order, so most share the day (and period) of the one before.
  private var lastDay = -1
  private var lastPeriod = -1
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
    periods = ReportPeriods(range, by: grouping, weekStartsOn: settings.weekStartsOn)
    activities = known
    amounts = Array(repeating: nil, count: known.count)
    for (index, activity) in known.enumerated() { indexByID[activity.id] = index }
    firstDay = range.from.daysSinceEpoch
  }

  /// Counts `entry`, whose report day must be in the range.
  public mutating func add(_ entry: Entry) {
    let day = settings.dayNumber(of: entry.time) - firstDay
    guard day >= 0 && day < Int64(range.dayCount) else { return }
    let dayIndex = Int(day)
    if dayIndex != lastDay {
      guard let period = periods.index(ofDay: dayIndex) else { return }
      lastDay = dayIndex
      lastPeriod = period
    }
    if lastIndex < 0 || entry.activityID != lastID {
      lastID = entry.activityID
      lastIndex = indexByID[lastID] ?? addActivity(of: entry)
    }
    if amounts[lastIndex] == nil { amounts[lastIndex] = PeriodTally() }
    amounts[lastIndex]?.add(
      duration: entry.duration, quantity: entry.quantity, toPeriod: lastPeriod)
    if entry.kind == .sleep { sleepsByDay[dayIndex, default: []].append(entry) }
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

/// One activity's amounts in the periods it has entries in, in order of period: a few numbers
/// per period with entries, nothing for the others.
struct PeriodTally: Sendable {
  /// The positions of the periods with entries, ascending.
  private(set) var periods: [Int] = []
  /// Their amounts, as in ``periods``.
  private(set) var amounts: [ActivityAmount] = []

  /// Counts an entry of `duration` and `quantity` to the period at `period`.
  mutating func add(duration: Int?, quantity: Double?, toPeriod period: Int) {
    if let last = periods.last, last == period {
      amounts[amounts.count - 1].add(duration: duration, quantity: quantity)
      return
    }
    // Entries come in time order; one logged at another offset can fall in an earlier period.
    var slot = periods.count
    if let last = periods.last, period < last {
      slot = periods.partitioningIndex { $0 >= period }
      if slot < periods.count && periods[slot] == period {
        amounts[slot].add(duration: duration, quantity: quantity)
        return
      }
    }
    var amount = ActivityAmount()
    amount.add(duration: duration, quantity: quantity)
    periods.insert(period, at: slot)
    amounts.insert(amount, at: slot)
  }

  /// The amount of the period at `period`: empty when it has no entries.
  func amount(ofPeriod period: Int) -> ActivityAmount {
    let slot = periods.partitioningIndex { $0 >= period }
    return slot < periods.count && periods[slot] == period ? amounts[slot] : ActivityAmount()
  }
}

extension Array where Element == Int {
  /// The first index whose element `belongs` to the upper part of this array, which `belongs`
  /// splits in two (false, then true): a binary search.
  fileprivate func partitioningIndex(where belongs: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = low + (high - low) / 2
      if belongs(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}

/// One activity's amounts, per period and over the range.
public struct ActivityTotals: Sendable {
  public let activity: Activity
  /// One per period of the report, in order; made when asked for from the periods with
  /// entries.
  public let periods: PeriodAmounts
  /// Over the whole range.
  public let total: ActivityAmount

  init(activity: Activity, periods tally: PeriodTally, periodRanges: ReportPeriods) {
    self.activity = activity
    var total = ActivityAmount()
    for amount in tally.amounts { total.merge(amount) }
    if let target = activity.target, let first = periodRanges.first, let last = periodRanges.last {
      total.compare(with: target, over: first.firstDay, last.lastDay)
    }
    periods = PeriodAmounts(tally: tally, periods: periodRanges, target: activity.target)
    self.total = total
  }
}

/// One activity's amount in each period of the report, in order, each compared with the
/// activity's target when read: the periods without entries are made empty on the fly.
public struct PeriodAmounts: RandomAccessCollection, Sendable {
  let tally: PeriodTally
  let periods: ReportPeriods
  let target: Target?

  public var startIndex: Int { 0 }
  public var endIndex: Int { periods.count }

  /// How many periods are held: those with entries, never more than the entries counted.
  public var heldCount: Int { tally.periods.count }

  public subscript(index: Int) -> ActivityAmount {
    var amount = tally.amount(ofPeriod: index)
    if let target {
      let period = periods[index]
      amount.compare(with: target, over: period.firstDay, period.lastDay)
    }
    return amount
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
    let daysByLength = ReportPeriod.daysByLength(of: target.period, from: first, through: last)
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
