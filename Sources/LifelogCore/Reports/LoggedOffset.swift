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
    // A handful of offsets at most: a list searched from the last one found beats a dictionary.
    var found: [(offset: Int, entries: Int, away: Int, first: Int64, last: Int64)] = []
    var cache = ZoneOffsetCache(zone: zone)
    var current = -1
    let entries = log.entries
    for index in entries.indices {
      let time = entries[index].time
      let offset = time.offsetMinutes
      let day = log.settings.dayNumber(of: time)
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
    return found.map {
      LoggedOffset(
        offsetMinutes: $0.offset, entries: $0.entries, awayEntries: $0.away,
        firstDay: CivilDate(daysSinceEpoch: $0.first), lastDay: CivilDate(daysSinceEpoch: $0.last))
    }
  }
}
