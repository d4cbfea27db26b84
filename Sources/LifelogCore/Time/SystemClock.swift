@preconcurrency import Glibc

/// The system's clocks, read in one place: the wall clock (`CLOCK_REALTIME`) for what is stored
/// or shown, the monotonic clock (`CLOCK_MONOTONIC`, which never jumps when the system clock is
/// set) for deadlines and durations.
///
/// The C shim of the server (lifelog_httpd.c) reads `CLOCK_MONOTONIC` itself for the moment a
/// request arrived; ``monotonicNanoseconds()`` reads the same clock, so the two subtract.
public enum SystemClock {
  /// Seconds since 1970-01-01T00:00:00Z, and the nanoseconds past that second.
  public static func now() -> (seconds: Int64, nanoseconds: Int) {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return (Int64(spec.tv_sec), Int(spec.tv_nsec))
  }

  /// Whole seconds since 1970-01-01T00:00:00Z.
  public static func unixSeconds() -> Int64 { now().seconds }

  /// Milliseconds since 1970-01-01T00:00:00Z.
  public static func unixMilliseconds() -> Int64 {
    let (seconds, nanoseconds) = now()
    return seconds * 1000 + Int64(nanoseconds / 1_000_000)
  }

  /// Nanoseconds of the monotonic clock, since an arbitrary fixed point (the boot).
  public static func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// Seconds of the monotonic clock, with a fraction.
  public static func monotonicSeconds() -> Double {
    Double(monotonicNanoseconds()) / 1e9
  }
}
