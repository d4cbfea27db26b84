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
