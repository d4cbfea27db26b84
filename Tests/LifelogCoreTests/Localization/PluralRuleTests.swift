import LifelogCore
import Testing

/// The plural rule comes from the catalog's `Plural-Forms` header, evaluated as C.
@Suite struct PluralRuleTests {
  static let polishHeader =
    "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"

  @Test(arguments: [
    (1, 0), (2, 1), (3, 1), (4, 1), (5, 2), (11, 2), (12, 2), (14, 2), (21, 2), (22, 1), (24, 1),
    (0, 2), (100, 2), (102, 1), (112, 2), (1_000_001, 2),
  ])
  func polishFormsFollowTheHeader(count: Int, form: Int) throws {
    #expect(try PluralRule(header: Self.polishHeader).form(for: count) == form)
  }

  @Test func englishAndOtherRulesParse() throws {
    let english = try PluralRule(header: " nplurals=2; plural=n != 1;")
    #expect([0, 1, 2].map(english.form) == [1, 0, 1])
    let french = try PluralRule(header: "nplurals=2; plural=(n > 1);")
    #expect([0, 1, 2].map(french.form) == [0, 0, 1])
    let precedence = try PluralRule(header: "nplurals=3; plural=!(n - 1) ? 0 : n * 2 % 3 + 0;")
    #expect([1, 2, 3].map(precedence.form) == [0, 1, 0])
    let one = try PluralRule(header: "nplurals=1; plural=0;")
    #expect(one.form(for: 7) == 0)
  }

  /// Division by zero, a form out of range and deep nesting neither trap nor hang.
  @Test func hostileHeadersAreRefusedOrHarmless() throws {
    #expect(try PluralRule(header: "nplurals=2; plural=n / 0 + n % 0;").form(for: 5) == 0)
    #expect(try PluralRule(header: "nplurals=2; plural=n + 9;").form(for: 5) == 1)
    for bad in [
      "plural=n != 1;", "nplurals=2;", "nplurals=9; plural=n;", "nplurals=2; plural=n ! 1;",
      "nplurals=2; plural=(n;", "nplurals=2; plural=x;", "nplurals=2; plural=n ? 1;",
      "nplurals=2; plural=99999999999999999999;",
      "nplurals=2; plural=" + String(repeating: "(", count: 200) + "n"
        + String(repeating: ")", count: 200) + ";",
      "nplurals=2; plural=" + String(repeating: "!", count: 300) + "n;",
    ] {
      #expect(throws: InputError.self, "\(bad.prefix(60))") { try PluralRule(header: bad) }
    }
  }
}
