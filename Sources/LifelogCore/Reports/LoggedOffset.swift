/// One UTC offset that a report's entries were logged at, and how often.
///
/// A report shows every entry at the wall-clock time where it was logged, so a week with a trip
/// mixes clocks; the report lists the offsets that occur so a reader knows. An offset the reader's
/// zone has (both of them across a DST change) is home; entries logged at any other are away.
public struct LoggedOffset: Hashable, Sendable {
  /// Minutes east of UTC.
  public let offsetMinutes: Int
  /// How many of the report's entries were logged at it.
  public let entries: Int
  /// How many of those were logged where the reader's zone had another offset at that instant.
  public let awayEntries: Int
  /// The first and last report days with an entry at this offset.
  public let firstDay: CivilDate
  public let lastDay: CivilDate

  /// The offsets of `log`'s entries, in the order they first occur.
  static func list(in log: ReportLog, zone: any TimeZoneRules) -> [LoggedOffset] {
    var tally = LoggedOffsetTally(settings: log.settings, zone: zone)
    for entry in log.entries { tally.add(entry) }
    return tally.offsets
  }
}

/// Counts the UTC offsets of a report's entries as they are read, oldest first: a handful of
/// counters, whatever the number of entries.
public struct LoggedOffsetTally {
  private let settings: ReportSettings
  // A handful of offsets at most: a list searched from the last one found beats a dictionary.
  private var found: [(offset: Int, entries: Int, away: Int, first: Int64, last: Int64)] = []
  private var cache: ZoneOffsetCache
  private var current = -1

  /// - Parameter zone: the reader's zone; an entry logged at an offset it did not have then is
  ///   counted as away.
  public init(settings: ReportSettings, zone: any TimeZoneRules) {
    self.settings = settings
    cache = ZoneOffsetCache(zone: zone)
  }

  /// Counts `entry`.
  public mutating func add(_ entry: Entry) {
    let time = entry.time
    let offset = time.offsetMinutes
    let day = settings.dayNumber(of: time)
    let away = cache.isAway(time) ? 1 : 0
    if current < 0 || found[current].offset != offset {
      if let index = found.firstIndex(where: { $0.offset == offset }) {
        current = index
      } else {
        current = found.count
        found.append((offset, 0, 0, day, day))
      }
    }
    found[current].entries += 1
    found[current].away += away
    found[current].first = min(found[current].first, day)
    found[current].last = max(found[current].last, day)
  }

  /// The offsets counted, in the order they first occurred.
  public var offsets: [LoggedOffset] {
    found.map {
      LoggedOffset(
        offsetMinutes: $0.offset, entries: $0.entries, awayEntries: $0.away,
        firstDay: CivilDate(daysSinceEpoch: $0.first), lastDay: CivilDate(daysSinceEpoch: $0.last))
    }
  }
}
