import Synchronization

/// A token bucket per key (a user, a client address): `rate` requests a second on average,
/// `burst` at once.
///
/// The buckets kept are bounded: past ``maximumKeys`` the ones that have refilled (a key not seen
/// for `burst / rate` seconds) are dropped, and all of them when that is not enough (more keys
/// busy at once than that), so clients from many addresses cost neither memory nor time for ever.
public final class RateLimiter<Key: Hashable & Sendable>: Sendable {
  /// Requests per second; 0 turns the limit off.
  public let rate: Double
  public let burst: Double
  /// Buckets kept before the full ones are dropped.
  public let maximumKeys: Int
  private let buckets = Mutex<[Key: Bucket]>([:])

  private struct Bucket {
    var tokens: Double
    var updated: UInt64
  }

  public init(rate: Double, burst: Int, maximumKeys: Int = 100_000) {
    self.rate = rate
    self.burst = Double(max(1, burst))
    self.maximumKeys = max(1, maximumKeys)
  }

  /// Takes one token for `key` at monotonic time `now` (nanoseconds).
  ///
  /// - Returns: nil when the request may go on, else the whole seconds until it may (at least 1).
  public func admit(_ key: Key, now: UInt64) -> Int? {
    guard rate > 0 else { return nil }
    return buckets.withLock { buckets -> Int? in
      var bucket = refilled(buckets[key], now: now)
      defer {
        buckets[key] = bucket
        if buckets.count > maximumKeys { dropFull(&buckets, now: now) }
      }
      if bucket.tokens >= 1 {
        bucket.tokens -= 1
        return nil
      }
      return wait(bucket)
    }
  }

  /// Whether `key` has a token at `now`, without taking it: nil when it has, else the whole
  /// seconds until it will (for a cost paid only when the request turns out wrong).
  public func check(_ key: Key, now: UInt64) -> Int? {
    guard rate > 0 else { return nil }
    return buckets.withLock { buckets -> Int? in
      let bucket = refilled(buckets[key], now: now)
      return bucket.tokens >= 1 ? nil : wait(bucket)
    }
  }

  private func refilled(_ stored: Bucket?, now: UInt64) -> Bucket {
    var bucket = stored ?? Bucket(tokens: burst, updated: now)
    if now > bucket.updated {
      bucket.tokens = min(burst, bucket.tokens + Double(now &- bucket.updated) / 1e9 * rate)
    }
    bucket.updated = max(bucket.updated, now)
    return bucket
  }

  private func wait(_ bucket: Bucket) -> Int {
    max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
  }

  private func dropFull(_ buckets: inout [Key: Bucket], now: UInt64) {
    buckets = buckets.filter { refilled($0.value, now: now).tokens < burst }
    if buckets.count > maximumKeys / 2 { buckets = [:] }
  }
}
