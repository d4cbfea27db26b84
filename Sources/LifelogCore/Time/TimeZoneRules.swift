/// The rules of one time zone: which UTC offset is in force at a given instant.
///
/// Everything else (turning a wall-clock time into an instant, spotting times skipped or repeated
/// by a DST change) is derived from this one question, so every zone behaves alike.
public protocol TimeZoneRules: Sendable {
  /// Seconds east of UTC in force at `instant` (Unix seconds).
  func offsetSeconds(at instant: Int64) -> Int
}

/// How a wall-clock time maps onto instants in a zone.
public enum LocalTimeResolution: Equatable, Sendable {
  /// Exactly one instant shows this wall-clock time.
  case unique(Int64)
  /// The clocks jumped forward over this time: no instant shows it.
  case skipped
  /// The clocks went back over this time: it happened twice (earlier instant first).
  case repeated(Int64, Int64)
}

extension TimeZoneRules {
  /// Finds the instants at which this zone's clocks showed `local`.
  ///
  /// A wall-clock time occurs at `t` exactly when `offset(t) == wall - t`; every offset in force
  /// within a day of the wall time is a candidate, and each candidate is checked.
  public func resolve(_ local: LocalDateTime) -> LocalTimeResolution {
    let wall = local.secondsAsIfUTC
    var offsets: [Int] = []
    for probe in [wall - 86_400, wall, wall + 86_400] {
      let offset = offsetSeconds(at: probe)
      if !offsets.contains(offset) { offsets.append(offset) }
    }
    var instants: [Int64] = []
    for offset in offsets {
      let instant = wall - Int64(offset)
      if offsetSeconds(at: instant) == offset, !instants.contains(instant) {
        instants.append(instant)
      }
    }
    instants.sort()
    switch instants.count {
    case 0: return .skipped
    case 1: return .unique(instants[0])
    default: return .repeated(instants[0], instants[instants.count - 1])
    }
  }

  /// The instant plus the offset in force then, as stored with an entry.
  public func loggedTime(at instant: Int64) -> LoggedTime {
    LoggedTime(instant: instant, offsetMinutes: offsetSeconds(at: instant) / 60)
  }
}

/// A zone that never changes its offset (UTC, or the offset written in an ISO 8601 time).
public struct FixedOffsetZone: TimeZoneRules {
  public let seconds: Int
  public init(seconds: Int) { self.seconds = seconds }
  public func offsetSeconds(at instant: Int64) -> Int { seconds }
}
