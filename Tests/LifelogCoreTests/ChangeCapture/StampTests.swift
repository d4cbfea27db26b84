import LifelogCore
import Testing

@Suite struct StampTests {
  @Test func stampsOrderByTimeThenCounterThenDevice() {
    let early = Stamp.make(milliseconds: 1_000, counter: 5, device: "ffff")
    let later = Stamp.make(milliseconds: 1_001, counter: 0, device: "0000")
    let laterCounter = Stamp.make(milliseconds: 1_001, counter: 1, device: "0000")
    let laterDevice = Stamp.make(milliseconds: 1_001, counter: 1, device: "0001")
    #expect(
      [laterDevice, early, laterCounter, later].sorted() == [
        early, later, laterCounter, laterDevice,
      ])
    #expect(Stamp.never < early)
    #expect(Stamp.isValid(early))
    #expect(Stamp.milliseconds(later) == 1_001)
    #expect(Stamp.counter(laterCounter) == 1)
  }

  @Test func theClockNeverGoesBackAndCountsWithinAMillisecond() {
    var clock = HybridClock()
    #expect(clock.tick(wall: 100) == HybridClock(milliseconds: 100, counter: 0))
    #expect(clock.tick(wall: 100) == HybridClock(milliseconds: 100, counter: 1))
    #expect(clock.tick(wall: 50) == HybridClock(milliseconds: 100, counter: 2))
    #expect(clock.tick(wall: 200) == HybridClock(milliseconds: 200, counter: 0))
  }

  @Test func seeingAStampFromTheFutureMakesTheNextLocalWriteNewer() {
    var clock = HybridClock(milliseconds: 100, counter: 0)
    let remote = Stamp.make(milliseconds: 90_000, counter: 7, device: "aaaa")
    clock.observe(remote, wall: 150)
    let next = clock.tick(wall: 150)
    let local = Stamp.make(milliseconds: next.milliseconds, counter: next.counter, device: "0000")
    #expect(local > remote)
  }

  @Test func aStampIsAlways28WideWhateverTheReading() {
    for (milliseconds, counter) in [
      (Int64.max, Int.max), (Stamp.maximumMilliseconds + 1, 0x1_0000), (-1, -1), (0, 0),
    ] {
      let stamp = Stamp.make(milliseconds: milliseconds, counter: counter, device: "abc")
      #expect(
        stamp.utf8.count == Stamp.length && Stamp.isValid(stamp),
        "\(milliseconds) \(counter): \(stamp)")
    }
    #expect(
      Stamp.make(milliseconds: Int64.max, counter: Int.max, device: "")
        == "ffffffffffffffff000000000000")
  }

  @Test func theClockSaturatesAtTheLargestStampInsteadOfCarryingIntoA13thDigit() {
    var clock = HybridClock(
      milliseconds: Stamp.maximumMilliseconds, counter: Stamp.maximumCounter - 1)
    for _ in 0..<3 {
      let reading = clock.tick(wall: 1_000)
      let stamp = Stamp.make(
        milliseconds: reading.milliseconds, counter: reading.counter, device: "a")
      #expect(Stamp.isValid(stamp), "\(reading)")
    }
    #expect(
      clock == HybridClock(milliseconds: Stamp.maximumMilliseconds, counter: Stamp.maximumCounter))
    var carrying = HybridClock(milliseconds: 100, counter: Stamp.maximumCounter)
    #expect(carrying.tick(wall: 50) == HybridClock(milliseconds: 101, counter: 0))
  }

  @Test func aStampMoreThanAnHourAheadOfTheWallClockDoesNotMoveTheClock() {
    let wall: Int64 = 1_780_000_000_000
    var clock = HybridClock(milliseconds: wall, counter: 0)
    clock.observe(
      Stamp.make(milliseconds: Stamp.maximumMilliseconds, counter: 0xFFFF, device: "e"), wall: wall)
    clock.observe(
      Stamp.make(milliseconds: wall + Stamp.aheadLimit + 1, counter: 0, device: "e"), wall: wall)
    #expect(clock == HybridClock(milliseconds: wall, counter: 0))
    clock.observe(
      Stamp.make(milliseconds: wall + Stamp.aheadLimit, counter: 3, device: "e"), wall: wall)
    #expect(clock == HybridClock(milliseconds: wall + Stamp.aheadLimit, counter: 3))
    clock.observe("not a stamp at all, 28 long", wall: wall)
    clock.observe("-0000000000010000aaaaaaaaaaa", wall: wall)
    #expect(clock == HybridClock(milliseconds: wall + Stamp.aheadLimit, counter: 3))
  }

  @Test func fieldStampsCollapseWhenAllAlike() {
    var stamps = FieldStamps(count: 3, stamp: "s1")
    #expect(stamps.encoded == "s1")
    stamps[1] = "s2"
    #expect(stamps.encoded == "s1,s2,s1")
    #expect(FieldStamps(decoding: "s1,s2,s1", count: 3) == stamps)
    #expect(FieldStamps(decoding: "s1", count: 3).stamps == ["s1", "s1", "s1"])
    #expect(stamps.newest == "s2")
  }
}
