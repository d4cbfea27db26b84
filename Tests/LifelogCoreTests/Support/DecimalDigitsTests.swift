import Testing

@testable import LifelogCore

/// The fixed-width digit reader the time parsers share: digits only, and never past the buffer.
@Suite struct DecimalDigitsTests {
  func decimal(_ text: String, at start: Int, count: Int) -> Int? {
    var text = text
    return text.withUTF8 { $0.decimal(at: start, count: count) }
  }

  @Test func digitsReadAsTheirNumber() {
    #expect(decimal("20231001T103000Z", at: 0, count: 4) == 2023)
    #expect(decimal("20231001T103000Z", at: 4, count: 2) == 10)
    #expect(decimal("20231001T103000Z", at: 13, count: 2) == 0)
    #expect(decimal("7", at: 0, count: 0) == 0)
  }

  @Test(arguments: [
    ("2023-10", 0, 7), ("12a4", 0, 4), (" 12", 0, 3), ("+1", 0, 2), ("١٢", 0, 2),
  ])
  func aByteThatIsNotAnASCIIDigitIsNil(text: String, start: Int, count: Int) {
    #expect(decimal(text, at: start, count: count) == nil)
  }

  @Test(arguments: [(0, 5), (3, 2), (-1, 2), (2, -1), (Int.max, 2), (1, Int.max)])
  func aRangeOutsideTheBufferIsNilNotATrap(start: Int, count: Int) {
    #expect(decimal("1234", at: start, count: count) == nil)
  }

  @Test func moreDigitsThanAnIntHoldsAreRefused() {
    #expect(decimal(String(repeating: "9", count: 19), at: 0, count: 19) == nil)
    #expect(decimal(String(repeating: "9", count: 18), at: 0, count: 18) == 999_999_999_999_999_999)
  }
}
