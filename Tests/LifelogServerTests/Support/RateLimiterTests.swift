import Testing

@testable import LifelogServer

@Suite struct RateLimiterTests {
  @Test func aBurstThenTheRateWithTheWaitInWholeSeconds() {
    let limiter = RateLimiter<Int64>(rate: 2, burst: 3)
    let second: UInt64 = 1_000_000_000
    #expect((0..<3).allSatisfy { _ in limiter.admit(1, now: 10 * second) == nil })
    #expect(limiter.admit(1, now: 10 * second) == 1)
    #expect(limiter.admit(2, now: 10 * second) == nil)
    #expect(limiter.admit(1, now: 10 * second + second / 2) == nil)
    #expect(limiter.admit(1, now: 10 * second + second / 2) == 1)
  }

  @Test func aSlowRateAsksForALongerWait() {
    let limiter = RateLimiter<Int64>(rate: 0.1, burst: 1)
    #expect(limiter.admit(1, now: 0) == nil)
    #expect(limiter.admit(1, now: 1) == 10)
  }

  @Test func rateZeroIsNoLimit() {
    let limiter = RateLimiter<Int64>(rate: 0, burst: 1)
    #expect((0..<1000).allSatisfy { _ in limiter.admit(1, now: 0) == nil })
  }

  /// Many other keys cannot reset the limit on a key that is held back: the buckets evicted are
  /// the full ones, never one still in penalty.
  @Test func manyNewKeysNeverResetAKeyInPenalty() {
    let limiter = RateLimiter<Int>(rate: 1.0 / 60, burst: 2, maximumKeys: 10)
    #expect(limiter.admit(-1, now: 0) == nil)
    #expect(limiter.admit(-1, now: 0) == nil)
    #expect(limiter.admit(-1, now: 0) == 60)
    // Each new key spends one of its two tokens: busy, yet not in penalty.
    for key in 0..<1000 {
      #expect(limiter.admit(key, now: UInt64(key) * 1000) == nil)
      #expect(limiter.keyCount <= 10)
    }
    #expect(limiter.admit(-1, now: 1_000_000) == 60)
  }

  /// When every bucket kept is in penalty, a new key waits until the first penalty ends (and
  /// is then let in): kept untracked it would escape its limit.
  @Test func aNewKeyWaitsWhileEveryKeptOneIsInPenalty() {
    let second: UInt64 = 1_000_000_000
    let limiter = RateLimiter<Int>(rate: 1, burst: 1, maximumKeys: 4)
    for key in 0..<4 {
      #expect(limiter.admit(key, now: 0) == nil)
    }
    #expect(limiter.admit(99, now: 0) == 1)
    #expect(limiter.admit(99, now: second / 2) == 1)
    #expect(limiter.admit(0, now: second / 2) == 1)
    #expect(limiter.admit(99, now: second) == nil)
    #expect(limiter.keyCount <= 4)
  }
}
