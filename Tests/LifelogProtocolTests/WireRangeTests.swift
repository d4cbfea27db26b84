import Foundation
import LifelogProtocol
import Testing

/// ``WireRange``: one range per number of the protocol, the same on both sides of the wire and in
/// docs/openapi.yaml.
@Suite struct WireRangeTests {
  @Test(arguments: [
    ("1", 1), ("2147483647", 2_147_483_647), ("0", nil), ("2147483648", nil),
    ("999999999999999", nil), ("01", nil), ("+1", nil), ("-1", nil), ("", nil), ("1 ", nil),
    ("99999999999999999999999", nil),
  ])
  func aSeqIsReadOnlyInItsRange(text: String, value: Int?) {
    #expect(WireRange.seq.parse(decimal: text) == value)
  }

  @Test func theRangesAreTheDocumentedOnes() {
    #expect(WireRange.seq.description == "1 to 2147483647")
    #expect(WireRange.count.contains(Int64(0)) && !WireRange.count.contains(Int64(-1)))
    #expect(WireRange.cursor.maximumDigits == 18)
  }

  /// The pattern docs/openapi.yaml gives a seq in a path (and a cursor's floor) takes exactly the
  /// numbers ``WireRange/seq`` takes, so the contract tests probe the server's real bounds.
  @Test func theSpecsSeqPatternIsTheRange() throws {
    let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "docs/openapi.yaml")
    let text = try String(contentsOf: spec, encoding: .utf8)
    let marker = "(WireRange.seq)\n      schema: { type: string, pattern: \""
    let start = try #require(text.range(of: marker)).upperBound
    let end = try #require(text[start...].firstIndex(of: "\""))
    let pattern = try NSRegularExpression(pattern: String(text[start..<end]))
    var probes = ["0", "01", "2147483648", "2147483650", "3000000000", "9999999999", "10000000000"]
    probes += ["1", "9", "10", "999999999", "1000000000", "2147483647", "2147483639", "2000000000"]
    var seed: UInt64 = 20_261_206
    print("WireRangeTests seed \(seed)")
    for _ in 0..<2000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      probes.append(String((seed >> 20) % 4_300_000_000))
    }
    for probe in probes {
      let matched =
        pattern.firstMatch(in: probe, range: NSRange(probe.startIndex..., in: probe)) != nil
      #expect(matched == (WireRange.seq.parse(decimal: probe) != nil), "\(probe)")
    }
    #expect(text.contains("maximum: 2147483647"))
  }
}
