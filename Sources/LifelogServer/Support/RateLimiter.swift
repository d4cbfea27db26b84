import Synchronization

/// A token bucket per key (a user, a client address): `rate` requests a second on average,
/// `burst` at once.
///
/// The buckets kept are bounded by ``maximumKeys``, and the limit on a key that is being held
/// back cannot be reset by making more keys: past the bound buckets are evicted, the full ones
/// (idle long enough to refill) first, down to three quarters of it, and never one below a whole
/// token (a key still waiting out its penalty). When every bucket kept is in penalty, a new key is refused
/// (with the wait until the first penalty ends) rather than let in untracked: so clients from
/// many addresses cost neither memory nor time for ever, and none of them escapes its limit.
public final class RateLimiter<Key: Hashable & Sendable>: Sendable {
  /// Requests per second; 0 turns the limit off.
  public let rate: Double
  public let burst: Double
  /// Buckets kept at most.
  public let maximumKeys: Int
  private let state = Mutex(State())

  private struct Bucket {
    var tokens: Double
    var updated: UInt64
  }

  private struct State {
    var buckets: [Key: Bucket] = [:]
    /// Before this monotonic time every bucket kept is in penalty: no eviction is tried again
    /// (each try looks at every bucket) and a new key is refused.
    var fullUntil: UInt64 = 0
  }

  public init(rate: Double, burst: Int, maximumKeys: Int = 100_000) {
    self.rate = rate
    self.burst = Double(max(1, burst))
    self.maximumKeys = max(1, maximumKeys)
  }

  /// The number of buckets kept.
  var keyCount: Int { state.withLock { $0.buckets.count } }

  /// Takes one token for `key` at monotonic time `now` (nanoseconds).
  ///
  /// - Returns: nil when the request may go on, else the whole seconds until it may (at least 1).
  public func admit(_ key: Key, now: UInt64) -> Int? {
    guard rate > 0 else { return nil }
    return state.withLock { state -> Int? in
      let stored = state.buckets[key]
      if stored == nil, state.buckets.count >= maximumKeys, !makeRoom(&state, now: now) {
        return wholeSeconds(state.fullUntil &- now)
      }
      var bucket = refilled(stored, now: now)
      defer { state.buckets[key] = bucket }
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
    return state.withLock { state -> Int? in
      let bucket = refilled(state.buckets[key], now: now)
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

  private func wholeSeconds(_ nanoseconds: UInt64) -> Int {
    max(1, Int((Double(nanoseconds) / 1e9).rounded(.up)))
  }

  /// Evicts buckets out of penalty down to three quarters of ``maximumKeys``: the full ones (idle
  /// for `burst / rate` seconds) first, then any with a whole token, never one below.
  ///
  /// Two passes over the buckets, no sorting, under the lock: at 100,000 keys it runs once per
  /// 25,000 new ones. The buckets kept go into a new dictionary: removing a quarter of them in
  /// the order the dictionary holds them leaves its table in long runs that make each later
  /// lookup slow.
  ///
  /// - Returns: whether there is room for one more key.
  private func makeRoom(_ state: inout State, now: UInt64) -> Bool {
    guard now >= state.fullUntil else { return false }
    let excess = state.buckets.count - (maximumKeys - max(1, maximumKeys / 4))
    var fullCount = 0
    var freeCount = 0
    var firstFree = UInt64.max
    for stored in state.buckets.values {
      let tokens = refilled(stored, now: now).tokens
      if tokens >= burst {
        fullCount += 1
      } else if tokens >= 1 {
        freeCount += 1
      } else {
        let seconds = (1 - tokens) / rate
        let nanoseconds = seconds * 1e9 < 1.8e19 ? UInt64(seconds * 1e9) : UInt64.max / 2
        firstFree = min(firstFree, now &+ max(1, nanoseconds))
      }
    }
    guard fullCount + freeCount > 0 else {
      state.fullUntil = firstFree
      return false
    }
    var fullToDrop = min(excess, fullCount)
    var freeToDrop = min(excess - fullToDrop, freeCount)
    var kept: [Key: Bucket] = [:]
    kept.reserveCapacity(maximumKeys)
    for (key, stored) in state.buckets {
      let tokens = refilled(stored, now: now).tokens
      if tokens >= burst, fullToDrop > 0 {
        fullToDrop -= 1
      } else if tokens >= 1, tokens < burst, freeToDrop > 0 {
        freeToDrop -= 1
      } else {
        kept[key] = stored
      }
    }
    state.buckets = kept
    return true
  }
}
