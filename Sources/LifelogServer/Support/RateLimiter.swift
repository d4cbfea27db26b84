import Synchronization

/// A token bucket per key (a user): `rate` requests a second on average, `burst` at once.
public final class RateLimiter: Sendable {
  /// Requests per second; 0 turns the limit off.
  public let rate: Double
  public let burst: Double
  private let buckets = Mutex<[Int64: Bucket]>([:])

  private struct Bucket {
    var tokens: Double
    var updated: UInt64
  }

  public init(rate: Double, burst: Int) {
    self.rate = rate
    self.burst = Double(max(1, burst))
  }

  /// Takes one token for `key` at monotonic time `now` (nanoseconds).
  ///
  /// - Returns: nil when the request may go on, else the whole seconds until it may (at least 1).
  public func admit(_ key: Int64, now: UInt64) -> Int? {
    guard rate > 0 else { return nil }
    return buckets.withLock { buckets -> Int? in
      var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
      let elapsed = Double(now &- bucket.updated) / 1e9
      if now > bucket.updated { bucket.tokens = min(burst, bucket.tokens + elapsed * rate) }
      bucket.updated = max(bucket.updated, now)
      defer { buckets[key] = bucket }
      if bucket.tokens >= 1 {
        bucket.tokens -= 1
        return nil
      }
      let wait = (1 - bucket.tokens) / rate
      return max(1, Int(wait.rounded(.up)))
    }
  }
}
