import LifelogCore

/// Wall time from `CLOCK_MONOTONIC`, which never jumps when the system clock is set.
enum MonotonicClock {
  /// Nanoseconds since an arbitrary fixed point.
  static func nanoseconds() -> UInt64 { SystemClock.monotonicNanoseconds() }

  /// The seconds `body` takes.
  static func measure(_ body: () throws -> Void) rethrows -> Double {
    let start = nanoseconds()
    try body()
    return Double(nanoseconds() - start) / 1e9
  }
}

/// Repeated measurements of one thing, in seconds.
struct Samples {
  let values: [Double]
  private let sorted: [Double]

  init(_ values: [Double]) {
    precondition(!values.isEmpty, "no samples")
    self.values = values
    sorted = values.sorted()
  }

  var minimum: Double { sorted[0] }
  var maximum: Double { sorted[sorted.count - 1] }

  /// The middle value (the mean of the two middle values for an even count).
  var median: Double {
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The value below which `fraction` of the samples lie (nearest rank).
  func percentile(_ fraction: Double) -> Double {
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }
}
