import LifelogCore
import LifelogTestSupport
import Testing

/// The CSV formula guard is one to one: whatever a value is, the field the export writes reads
/// back as that value, and a value is guarded exactly when a spreadsheet would run it.
@Suite struct FormulaGuardTests {
  /// The CSV field's content as the export writes it (`csvText`), without the RFC 4180 quoting.
  static func written(_ value: String) -> String {
    var text = TextBytes()
    text.csvText(value)
    let field = text.string
    guard field.hasPrefix("\"") else { return field }
    return String(field.dropFirst().dropLast()).replacing("\"\"", with: "\"")
  }

  @Test(arguments: [
    ("=1+2", "'=1+2"), ("+48", "'+48"), ("-x", "'-x"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("\nx", "'\nx"), ("'=x", "''=x"), ("''-", "'''-"),
    ("it's", "it's"), ("'plain", "'plain"), ("'", "'"), ("", ""), ("a=b", "a=b"),
  ])
  func aValueIsGuardedExactlyWhenItWouldStartAFormula(value: String, field: String) {
    #expect(Self.written(value) == field)
    #expect(FormulaGuard.unguarded(field) == value)
  }

  @Test func everyValueReadsBackAsItWasWritten() {
    let seed: UInt64 = 0xF0_4A1A
    print("FormulaGuardTests seed \(seed)")
    var generator = SplitMix64(seed: seed)
    let pieces = ["'", "=", "+", "-", "@", "\t", "\r", "\n", "a", "ż", "\"", ",", " "]
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...6, using: &generator)
      let value = (0..<length).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
      #expect(FormulaGuard.unguarded(Self.written(value)) == value, "\(value.debugDescription)")
    }
  }
}
