/// The reader's zone offset at many instants, asked of the C library once per UTC day.
///
/// The C library's zone lookup (under a lock) is the slow part of marking 100,000 entries. A day
/// whose first and last second have the same offset is taken to have it throughout (zones change
/// offset at most a few times a year, never twice in a day); a day on which they differ is asked
/// about every instant.
struct ZoneOffsetCache {
  let zone: any TimeZoneRules
  private var start: Int64 = 1
  private var end: Int64 = 0
  private var offset = 0

  init(zone: any TimeZoneRules) { self.zone = zone }

  /// Seconds east of UTC in force at `instant`.
  mutating func offsetSeconds(at instant: Int64) -> Int {
    if instant >= start && instant < end { return offset }
    let dayStart = ReportSettings.floorDiv(instant, 86_400) * 86_400
    let first = zone.offsetSeconds(at: dayStart)
    guard first == zone.offsetSeconds(at: dayStart + 86_399) else {
      return zone.offsetSeconds(at: instant)
    }
    (start, end, offset) = (dayStart, dayStart + 86_400, first)
    return first
  }

  /// Whether `time` was logged at an offset the zone did not have at that instant (travel).
  mutating func isAway(_ time: LoggedTime) -> Bool {
    offsetSeconds(at: time.instant) != time.offsetMinutes * 60
  }
}
