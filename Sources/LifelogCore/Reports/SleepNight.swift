/// The sleep logged for one night: the sleep entries that begin in one report day (a night
/// belongs to the day it begins in, so 23:30 and 00:30 starts are both that day's night; a nap
/// counts to its day).
public struct SleepNight: Hashable, Sendable {
  public let date: CivilDate
  /// Sleep entries that began this report day.
  public let entries: Int
  /// Their durations added up (real elapsed time: a night across a DST change is 1 hour longer
  /// or shorter than the clock suggests).
  public let sleptSeconds: Int
  /// Entries logged without a duration (counted, not added up).
  public let untimedEntries: Int
  /// When the longest sleep began, on the clock it was logged at.
  public let bedtime: LoggedTime?
  /// When the longest sleep ended: on the reader's zone's clock at that instant when it was logged
  /// at home (so a night across a DST change ends at the time the clock showed), otherwise at the
  /// offset it was logged at.
  public let wakeTime: LoggedTime?

  /// A night without sleep entries.
  init(emptyOn date: CivilDate) {
    self.date = date
    entries = 0
    sleptSeconds = 0
    untimedEntries = 0
    bedtime = nil
    wakeTime = nil
  }

  init(date: CivilDate, entries sleeps: [Entry], offsets: inout ZoneOffsetCache) {
    self.date = date
    entries = sleeps.count
    sleptSeconds = sleeps.reduce(0) { $0 + ($1.duration ?? 0) }
    untimedEntries = sleeps.filter { $0.duration == nil }.count
    let longest = sleeps.filter { $0.duration != nil }.max {
      ($0.duration ?? 0) < ($1.duration ?? 0)
    }
    bedtime = longest?.time ?? sleeps.first?.time
    if let longest, let duration = longest.duration {
      let end = longest.time.instant + Int64(duration)
      let atHome = !offsets.isAway(longest.time)
      let offset = atHome ? offsets.offsetSeconds(at: end) / 60 : longest.time.offsetMinutes
      wakeTime = LoggedTime(instant: end, offsetMinutes: offset)
    } else {
      wakeTime = nil
    }
  }
}

/// Sleep over the whole range.
public struct SleepSummary: Hashable, Sendable {
  /// Nights (days) in the range.
  public let nights: Int
  /// Nights with at least one timed sleep entry.
  public let nightsLogged: Int
  /// The mean of ``SleepNight/sleptSeconds`` over the logged nights, to the second.
  public let averageSeconds: Int?
  public let shortestSeconds: Int?
  public let longestSeconds: Int?

  /// - Parameters:
  ///   - nights: the days of the range.
  ///   - logged: the nights with sleep entries (the others count as nights, not logged).
  init(nights: Int, logged: [SleepNight]) {
    let slept = logged.filter { $0.sleptSeconds > 0 }.map(\.sleptSeconds)
    self.nights = nights
    nightsLogged = slept.count
    averageSeconds =
      slept.isEmpty ? nil : Int((Double(slept.reduce(0, +)) / Double(slept.count)).rounded())
    shortestSeconds = slept.min()
    longestSeconds = slept.max()
  }
}

/// One night per day of a report's range, in order: the nights with sleep entries are held, the
/// others made empty when read, so a range of millions of days holds only its logged nights.
public struct SleepNights: RandomAccessCollection, Sendable {
  public let range: ReportRange
  /// The nights with sleep entries, in order of date.
  public let logged: [SleepNight]
  /// The position in the range (0 is its first day) of each of ``logged``.
  private let dayIndices: [Int]

  init(range: ReportRange, logged: [SleepNight]) {
    self.range = range
    self.logged = logged
    dayIndices = logged.map { Int($0.date.daysSinceEpoch - range.from.daysSinceEpoch) }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { range.dayCount }

  public subscript(index: Int) -> SleepNight {
    var low = 0
    var high = dayIndices.count
    while low < high {
      let middle = low + (high - low) / 2
      if dayIndices[middle] >= index { high = middle } else { low = middle + 1 }
    }
    if low < dayIndices.count && dayIndices[low] == index { return logged[low] }
    return SleepNight(emptyOn: range.from.adding(days: index))
  }
}
