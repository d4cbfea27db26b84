/// A wall-clock date and time with no time zone: what a person reads off a clock.
public struct LocalDateTime: Hashable, Sendable {
  public var date: CivilDate
  public var hour: Int
  public var minute: Int
  public var second: Int

  public init(date: CivilDate, hour: Int, minute: Int, second: Int = 0) {
    self.date = date
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// The wall-clock time shown at `instant` (Unix seconds) where the UTC offset is `offsetSeconds`.
  public init(instant: Int64, offsetSeconds: Int) {
    let local = instant + Int64(offsetSeconds)
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    let secondOfDay = Int(local - days * 86_400)
    date = CivilDate(daysSinceEpoch: days)
    hour = secondOfDay / 3600
    minute = secondOfDay / 60 % 60
    second = secondOfDay % 60
  }

  /// The Unix time this wall-clock reading would be if the zone were UTC.
  public var secondsAsIfUTC: Int64 {
    date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  /// `08:15`, or `08:15:30` when the seconds are not zero.
  public var timeDescription: String {
    TextBytes.string { $0.clock(hour: hour, minute: minute, second: second) }
  }
}
