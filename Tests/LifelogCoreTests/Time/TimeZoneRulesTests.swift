import LifelogCore
import Testing

/// A zone whose offset changes once, at `change`, from `before` to `after` (seconds east of UTC).
private struct OneChangeZone: TimeZoneRules {
  let change: Int64
  let before: Int
  let after: Int

  func offsetSeconds(at instant: Int64) -> Int {
    instant < change ? before : after
  }
}

@Suite struct TimeZoneRulesTests {
  /// 2026-12-01T08:15, read as a wall clock.
  let wall = LocalDateTime(instant: 1_796_112_900, offsetSeconds: 0)

  @Test(arguments: [0, 3600, -18_000, 19_800, 50_400, -43_200])
  func aFixedZoneResolvesEveryTimeUniquely(offset: Int) {
    let zone = FixedOffsetZone(seconds: offset)
    #expect(zone.resolve(wall) == .unique(1_796_112_900 - Int64(offset)))
    #expect(zone.loggedTime(at: 1_796_112_900).offsetMinutes == offset / 60)
  }

  @Test func aForwardJumpSkipsTheWallTimesInTheGap() {
    // At 01:00 UTC the clocks go from 02:00 (+01:00) to 03:00 (+02:00).
    let change: Int64 = 1_774_746_000  // 2026-03-29T01:00:00Z
    let zone = OneChangeZone(change: change, before: 3600, after: 7200)
    let day = CivilDate(daysSinceEpoch: 20_541)
    #expect(day.description == "2026-03-29")
    #expect(
      zone.resolve(LocalDateTime(date: day, hour: 1, minute: 59, second: 59))
        == .unique(change - 1))
    #expect(zone.resolve(LocalDateTime(date: day, hour: 2, minute: 0)) == .skipped)
    #expect(zone.resolve(LocalDateTime(date: day, hour: 2, minute: 30)) == .skipped)
    #expect(zone.resolve(LocalDateTime(date: day, hour: 2, minute: 59, second: 59)) == .skipped)
    #expect(zone.resolve(LocalDateTime(date: day, hour: 3, minute: 0)) == .unique(change))
  }

  @Test func aBackwardJumpRepeatsTheWallTimesInTheOverlapEarlierFirst() {
    // At 01:00 UTC the clocks go from 03:00 (+02:00) back to 02:00 (+01:00).
    let change: Int64 = 1_792_890_000  // 2026-10-25T01:00:00Z
    let zone = OneChangeZone(change: change, before: 7200, after: 3600)
    let day = CivilDate(daysSinceEpoch: 20_751)
    #expect(day.description == "2026-10-25")
    #expect(
      zone.resolve(LocalDateTime(date: day, hour: 1, minute: 59, second: 59))
        == .unique(change - 3601))
    #expect(
      zone.resolve(LocalDateTime(date: day, hour: 2, minute: 0))
        == .repeated(change - 3600, change))
    #expect(
      zone.resolve(LocalDateTime(date: day, hour: 2, minute: 30))
        == .repeated(change - 1800, change + 1800))
    #expect(
      zone.resolve(LocalDateTime(date: day, hour: 2, minute: 59, second: 59))
        == .repeated(change - 1, change + 3599))
    #expect(zone.resolve(LocalDateTime(date: day, hour: 3, minute: 0)) == .unique(change + 3600))
  }

  @Test func aLoggedTimeCarriesTheOffsetInForceAtItsInstant() {
    let zone = OneChangeZone(change: 1_000_000, before: -18_000, after: -14_400)
    #expect(zone.loggedTime(at: 999_999) == LoggedTime(instant: 999_999, offsetMinutes: -300))
    #expect(zone.loggedTime(at: 1_000_000) == LoggedTime(instant: 1_000_000, offsetMinutes: -240))
  }

  @Test func aParserUsesAnyRulesItIsGiven() throws {
    let change: Int64 = 1_774_746_000  // 2026-03-29T01:00:00Z
    let zone = OneChangeZone(change: change, before: 3600, after: 7200)
    let parser = TimeParser(now: TimeFixture.now, zone: zone, zoneName: "Test/Zone")
    expectInputError(mentioning: ["does not exist in Test/Zone"]) {
      try parser.parseTime("2026-03-29 02:30")
    }
    #expect(try parser.parseTime("2026-03-29 03:00").instant == change)
  }
}
