import LifelogCore
import Testing

@Suite struct SystemTimeZoneTests {
  @Test(arguments: [
    ("Europe/Warsaw", Int64(1_774_745_999), 3600),  // 2026-03-29T00:59:59Z
    ("Europe/Warsaw", 1_774_746_000, 7200),  // 2026-03-29T01:00:00Z
    ("Europe/Warsaw", 1_792_889_999, 7200),  // 2026-10-25T00:59:59Z
    ("Europe/Warsaw", 1_792_890_000, 3600),  // 2026-10-25T01:00:00Z
    ("America/New_York", 1_772_953_199, -18_000),  // 2026-03-08T06:59:59Z
    ("America/New_York", 1_772_953_200, -14_400),  // 2026-03-08T07:00:00Z
    ("America/New_York", 1_793_512_799, -14_400),  // 2026-11-01T05:59:59Z
    ("America/New_York", 1_793_512_800, -18_000),  // 2026-11-01T06:00:00Z
    ("Asia/Kolkata", 1_796_209_200, 19_800),
    ("Asia/Kathmandu", 1_796_209_200, 20_700),
    ("UTC", 1_796_209_200, 0),
  ])
  func aNamedZoneGivesTheDatabaseOffset(identifier: String, instant: Int64, offset: Int) {
    #expect(SystemTimeZone(identifier: identifier).offsetSeconds(at: instant) == offset)
  }

  @Test func zonesCanBeAskedFromManyTasksAtOnce() async {
    let results = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<200 {
        group.addTask {
          let (zone, offset) =
            index.isMultiple(of: 2)
            ? ("Europe/Warsaw", 3600) : ("America/New_York", -18_000)
          return SystemTimeZone(identifier: zone).offsetSeconds(at: 1_796_209_200) == offset
        }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results.count == 200)
    #expect(results.allSatisfy { $0 })
  }

  @Test(arguments: [
    "Europe/Warsaw", "America/New_York", ":Europe/Warsaw", "/usr/share/zoneinfo/Europe/Warsaw",
    "UTC", "GMT", "", "UTC0", "EST5EDT", "CET-1CEST,M3.5.0,M10.5.0/3",
    "abc1",
  ])
  func aZoneTheCLibraryUnderstandsIsKnown(name: String) {
    #expect(SystemTimeZone.isKnown(name))
  }

  @Test(arguments: [
    "Mars/Olympus", "Europe/Warsw", "Warsaw", "CET-", "XY", "Europe", "Europe/", "America",
  ])
  func aZoneTheCLibraryWouldReadAsUTCIsUnknown(name: String) {
    #expect(!SystemTimeZone.isKnown(name))
  }
}
