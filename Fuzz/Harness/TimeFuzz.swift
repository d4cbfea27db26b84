import LifelogCore

/// The time and duration parsers: ``TimeParser`` (every entry point, ISO 8601 included) and
/// ``DurationText``, in a fixed zone with a DST change and a fixed "now".
enum TimeFuzz {
  /// 2026-12-02 12:00 in Warsaw, the tests' clock.
  static let parser = TimeParser(
    now: 1_796_295_600, zone: SystemTimeZone(identifier: "Europe/Warsaw"), zoneName: "Europe/Warsaw"
  )

  static func run(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? parser.parseTime(text)
    _ = try? parser.parseBoundary(text)
    _ = try? parser.parseDay(text)
    _ = try? ISO8601Time.parse(text)
  }

  /// A duration that parses must print as text that parses to the same seconds.
  static func runDuration(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let seconds = try? DurationText.parse(text) else { return }
    let printed = DurationText.format(seconds)
    guard (try? DurationText.parse(printed)) == seconds else {
      fatalError(
        "'\(text)' reads as \(seconds) s, printed as '\(printed)', which does not read back")
    }
  }
}
