import LifelogCore

/// Instants written the way a person reads them, for tests that need fixed times.
public enum TestTime {
  /// The Unix time of an ISO 8601 string with offset (`2026-10-01T08:00:00+02:00`).
  public static func instant(_ iso: String) -> Int64 {
    // A fixed-offset parse never fails for the well-formed strings tests pass in.
    (try? TimeParser(now: 0, zone: FixedOffsetZone(seconds: 0)).parseTime(iso).instant) ?? 0
  }
}
