/// An instant together with the UTC offset in force where it was logged.
///
/// The instant orders entries; the offset lets every report show the wall-clock time the person
/// lived (a breakfast logged at 08:00 in New York stays "08:00" after flying home to Warsaw).
public struct LoggedTime: Hashable, Sendable {
  /// Seconds since 1970-01-01T00:00:00Z.
  public var instant: Int64
  /// Minutes east of UTC at the place and moment of logging.
  public var offsetMinutes: Int

  public init(instant: Int64, offsetMinutes: Int) {
    self.instant = instant
    self.offsetMinutes = offsetMinutes
  }

  /// The wall-clock reading where the entry was logged.
  public var local: LocalDateTime {
    LocalDateTime(instant: instant, offsetSeconds: offsetMinutes * 60)
  }

  /// ISO 8601 with the logged offset: `2026-12-01T08:15:00+01:00`.
  public var iso8601: String { TextBytes.string { $0.iso8601(self) } }

  /// `+01:00`, `-05:00`, `+05:45`; UTC is `+00:00`.
  public static func offsetDescription(minutes: Int) -> String {
    TextBytes.string { $0.offset(minutes: minutes) }
  }
}
