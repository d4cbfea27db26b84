/// The hours `lifelog remind` stays silent (setting `remindQuietHours`): a wall-clock range such
/// as `22:00-07:00` that may run past midnight, or `off`.
public struct QuietHours: Hashable, Sendable {
  /// Minutes after midnight the quiet begins (inclusive) and ends (exclusive); nil when off.
  public let range: (start: Int, end: Int)?

  public static let off = QuietHours(range: nil)
  /// The default, `22:00-07:00`, used when a synced value cannot be read.
  public static let defaultHours = QuietHours(range: (22 * 60, 7 * 60))

  init(range: (start: Int, end: Int)?) { self.range = range }

  public static func == (lhs: QuietHours, rhs: QuietHours) -> Bool {
    lhs.range?.start == rhs.range?.start && lhs.range?.end == rhs.range?.end
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(range?.start)
    hasher.combine(range?.end)
  }

  /// Reads `HH:MM-HH:MM` (start and end differ) or `off`/`none`.
  public init(parsing text: String) throws(InputError) {
    let value = text.trimmingSpaces().lowercased()
    if value == "off" || value == "none" || value.isEmpty {
      range = nil
      return
    }
    let parts = value.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let start = QuietHours.minutes(parts[0]),
      let end = QuietHours.minutes(parts[1]),
      start != end
    else {
      throw InputError(
        "remindQuietHours must be two times of day such as '22:00-07:00' (it may pass midnight), or 'off'"
      )
    }
    range = (start, end)
  }

  /// `22:00-07:00` or `off`.
  public var description: String {
    guard let range else { return "off" }
    return QuietHours.clock(range.start) + "-" + QuietHours.clock(range.end)
  }

  /// Whether the wall-clock minute `minuteOfDay` (0 ..< 1440) is quiet.
  public func contains(minuteOfDay minute: Int) -> Bool {
    guard let range else { return false }
    return range.start < range.end
      ? (range.start..<range.end).contains(minute) : minute >= range.start || minute < range.end
  }

  /// Whether `time` is quiet, read on its own wall clock.
  public func contains(_ time: LoggedTime) -> Bool {
    let local = time.local
    return contains(minuteOfDay: local.hour * 60 + local.minute)
  }

  private static func minutes(_ text: Substring) -> Int? {
    guard let clock = try? ClockText.parse(String(text), original: String(text)), clock.second == 0
    else {
      return nil
    }
    return clock.hour * 60 + clock.minute
  }

  private static func clock(_ minutes: Int) -> String {
    TextBytes.string { $0.clock(hour: minutes / 60, minute: minutes % 60, second: 0) }
  }
}
