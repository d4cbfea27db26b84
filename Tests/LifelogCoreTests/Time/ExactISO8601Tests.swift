import LifelogCore
import Testing

/// The allocation-free ISO 8601 path that import rows take agrees with the general time parser.
@Suite struct ExactISO8601Tests {
  let parser = TimeParser(now: 1_764_673_200, zone: FixedOffsetZone(seconds: 3600))

  @Test(arguments: [
    "2026-12-01T08:15:00+01:00", "2026-12-01t08:15:00-05:30", "2026-12-01 23:59:59Z",
    "2024-02-29T00:00:00+14:00",
    "1999-01-01T12:00:00z",
  ])
  func exactTimesReadAsTheGeneralParserReadsThem(_ text: String) throws {
    let general = try TimeParser(now: parser.now, zone: parser.zone).parseBoundary(text)
    #expect(try parser.parseTime(text) == general)
  }

  @Test(arguments: [
    "2026-02-30T08:15:00+01:00", "2026-12-01T24:00:00+01:00", "2026-12-01T08:15:00+19:00",
  ])
  func impossibleValuesStillGetTheGeneralParsersError(_ text: String) {
    #expect(throws: InputError.self) { try parser.parseTime(text) }
  }
}
