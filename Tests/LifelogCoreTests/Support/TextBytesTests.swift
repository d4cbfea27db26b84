@preconcurrency import Glibc
import LifelogCore
import Testing

/// ``TextBytes`` is the one writer of the formats; its `String` wrappers are what most code calls.
///
/// These tests hold both against plain reference forms written here the slow, obvious way (the
/// `String` code the writer replaced), on fixed examples and on many random values.
@Suite struct TextBytesTests {
  static let seed: UInt64 = 0x7E57_B17E

  static func random() -> SplitMix64 {
    print("TextBytesTests seed: \(seed)")
    return SplitMix64(seed: seed)
  }

  // MARK: - Reference forms

  static func padded(_ value: Int, _ width: Int) -> String {
    let text = String(value.magnitude)
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count))
      + text
  }

  static func referenceOffset(_ minutes: Int) -> String {
    (minutes < 0 ? "-" : "+") + padded(abs(minutes) / 60, 2) + ":" + padded(abs(minutes) % 60, 2)
  }

  static func referenceISO(_ time: LoggedTime) -> String {
    let wall = time.local
    return
      "\(padded(wall.date.year, 4))-\(padded(wall.date.month, 2))-\(padded(wall.date.day, 2))T"
      + "\(padded(wall.hour, 2)):\(padded(wall.minute, 2)):\(padded(wall.second, 2))"
      + referenceOffset(time.offsetMinutes)
  }

  static func referenceClock(_ time: LoggedTime) -> String {
    let wall = time.local
    let base = "\(padded(wall.hour, 2)):\(padded(wall.minute, 2))"
    return wall.second == 0 ? base : base + ":\(padded(wall.second, 2))"
  }

  /// RFC 4180 by Unicode scalars (by scalars, not `Character`s: a CRLF is one `Character`).
  static func referenceCSV(_ value: String) -> String {
    let special: Set<Unicode.Scalar> = [",", "\"", "\n", "\r"]
    guard value.unicodeScalars.contains(where: special.contains) else { return value }
    var result = "\""
    for scalar in value.unicodeScalars {
      if scalar == "\"" { result += "\"" }
      result.unicodeScalars.append(scalar)
    }
    return result + "\""
  }

  static func referenceJSON(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  static func referenceFixed(_ value: Double, _ decimals: Int) -> String {
    var scale: Int64 = 1
    for _ in 0..<decimals { scale *= 10 }
    guard value.isFinite, abs(value) * Double(scale) < 1e15 else { return String(value) }
    let scaled = Int64((abs(value) * Double(scale)).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return sign + String(scaled) }
    let fraction = String(scaled % scale)
    return
      "\(sign)\(scaled / scale).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
  }

  static func referenceUTC(seconds: Int64, milliseconds: Int) -> String {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    return "\(parts.tm_year + 1900)-\(padded(Int(parts.tm_mon) + 1, 2))-"
      + "\(padded(Int(parts.tm_mday), 2))T\(padded(Int(parts.tm_hour), 2)):"
      + "\(padded(Int(parts.tm_min), 2)):\(padded(Int(parts.tm_sec), 2)).\(padded(milliseconds, 3))Z"
  }

  static func bytes(_ write: (inout TextBytes) -> Void) -> String {
    var text = TextBytes()
    write(&text)
    return String(decoding: text.bytes, as: UTF8.self)
  }

  /// A string of 0 to 12 scalars drawn mostly from the ones the formats treat specially.
  static func randomText(_ random: inout SplitMix64) -> String {
    let pool: [Unicode.Scalar] = [
      "a", "Z", " ", ",", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "\u{301}",
      "\u{2028}", "🍎", ";", ":",
    ]
    var text = String.UnicodeScalarView()
    for _ in 0..<Int(random.next() % 13) { text.append(pool[Int(random.next() % 18)]) }
    return String(text)
  }

  // MARK: - Fixed examples

  @Test func writesEachFormatAsTheDocumentsShowIt() {
    let time = LoggedTime(instant: 1_796_109_300, offsetMinutes: 60)
    #expect(time.iso8601 == "2026-12-01T08:15:00+01:00")
    #expect(Self.bytes { $0.clock(time) } == "08:15")
    #expect(LoggedTime.offsetDescription(minutes: -300) == "-05:00")
    #expect(LoggedTime.offsetDescription(minutes: 345) == "+05:45")
    #expect(Self.bytes { $0.csvField("a,\"b\"") } == "\"a,\"\"b\"\"\"")
    #expect(Self.bytes { $0.csvField("line\r\nbreak") } == "\"line\r\nbreak\"")
    #expect(JSONText.quoted("tab\tbell\u{07}") == "\"tab\\tbell\\u0007\"")
    #expect(Self.bytes { $0.fixed(4.6, decimals: 2) } == "4.60")
    #expect(Self.bytes { $0.fixed(-0.001, decimals: 2) } == "0.00")
    #expect(Self.bytes { $0.fixed(1e20, decimals: 1) } == "1e+20")
    #expect(
      Self.bytes { $0.iso8601UTC(seconds: 1_796_109_300, milliseconds: 42) }
        == "2026-12-01T07:15:00.042Z")
    #expect(Self.bytes { $0.number(Int64.min) } == "-9223372036854775808")
    #expect(Self.bytes { $0.digits(-5, 4) } == "-0005")
  }

  // MARK: - Many values

  @Test func timesAndOffsetsAgreeWithTheReferenceForms() {
    var random = Self.random()
    for _ in 0..<20_000 {
      // About 1700 to 2300, and any offset the parser accepts (±18 hours).
      let instant = Int64(random.next() % 19_000_000_000) - 8_000_000_000
      let offset = Int(random.next() % 2161) - 1080
      let time = LoggedTime(instant: instant, offsetMinutes: offset)
      #expect(time.iso8601 == Self.referenceISO(time))
      #expect(Self.bytes { $0.iso8601(time) } == Self.referenceISO(time))
      #expect(Self.bytes { $0.clock(time) } == Self.referenceClock(time))
      #expect(time.local.timeDescription == Self.referenceClock(time))
      #expect(LoggedTime.offsetDescription(minutes: offset) == Self.referenceOffset(offset))
      #expect(time.local.date.description == String(Self.referenceISO(time).prefix { $0 != "T" }))
      if instant >= 0 {
        let millis = Int(random.next() % 1000)
        #expect(
          Self.bytes { $0.iso8601UTC(seconds: instant, milliseconds: millis) }
            == Self.referenceUTC(seconds: instant, milliseconds: millis))
      }
    }
  }

  @Test func textFieldsAgreeWithTheReferenceForms() {
    var random = Self.random()
    for _ in 0..<20_000 {
      let text = Self.randomText(&random)
      #expect(Self.bytes { $0.csvField(text) } == Self.referenceCSV(text))
      #expect(Self.bytes { $0.jsonString(text) } == Self.referenceJSON(text))
      #expect(JSONText.quoted(text) == Self.referenceJSON(text))
    }
  }

  @Test func numbersAgreeWithTheReferenceForms() {
    var random = Self.random()
    for _ in 0..<20_000 {
      let magnitude = Double(random.next() % 10_000_000) / Double(1 << (random.next() % 20))
      let value = random.next() % 2 == 0 ? magnitude : -magnitude
      let decimals = Int(random.next() % 7)
      #expect(
        Self.bytes { $0.fixed(value, decimals: decimals) } == Self.referenceFixed(value, decimals))
      let whole = Int64(bitPattern: random.next())
      #expect(Self.bytes { $0.number(whole) } == String(whole))
      let small = Int(truncatingIfNeeded: whole) % 100_000
      let width = Int(random.next() % 7)
      #expect(Self.bytes { $0.digits(small, width) } == Self.padded(small, width))
    }
  }
}
