import LifelogCore
import Testing

/// Fixed clocks and parsers shared by the time tests, so that no test depends on the real time.
enum TimeFixture {
  /// 2026-12-02T12:00:00+01:00 (11:00 UTC), a Wednesday.
  static let now: Int64 = 1_796_209_200

  /// Reads wall-clock times as UTC, at ``now`` (11:00 on Wednesday 2026-12-02).
  static let utc = TimeParser(now: now, zone: FixedOffsetZone(seconds: 0), zoneName: "UTC")

  /// Reads wall-clock times in the named zone of the system database.
  static func parser(in identifier: String, now: Int64 = now) -> TimeParser {
    TimeParser(now: now, zone: SystemTimeZone(identifier: identifier), zoneName: identifier)
  }
}

/// Checks that `body` throws an ``InputError`` whose message contains every fragment.
func expectInputError<T>(
  mentioning fragments: [String],
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) {
  do {
    let value = try body()
    Issue.record("Expected an InputError, got \(value)", sourceLocation: sourceLocation)
  } catch let error as InputError {
    for fragment in fragments {
      #expect(
        error.message.contains(fragment), "\(error.message) should mention \(fragment)",
        sourceLocation: sourceLocation)
    }
  } catch {
    Issue.record("Expected an InputError, got \(error)", sourceLocation: sourceLocation)
  }
}

/// Checks that `parser` reads `input` as the ISO 8601 time `expected` (local time and offset).
func expectTime(
  _ input: String, is expected: String, parser: TimeParser = TimeFixture.utc,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    let time = try parser.parseTime(input)
    #expect(time.iso8601 == expected, "reading '\(input)'", sourceLocation: sourceLocation)
  } catch {
    Issue.record("'\(input)' was refused: \(error.message)", sourceLocation: sourceLocation)
  }
}
