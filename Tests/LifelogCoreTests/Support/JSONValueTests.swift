import LifelogCore
import Testing

@Suite struct JSONValueTests {
  @Test func parsesEveryKindOfValue() throws {
    let json = try JSONValue.parse(
      Array(
        #" {"a": [1, -2.5e3, true, false, null], "b": "x\"\\\/\n\u00e9\ud83c\udf4e", "c": {}} "#
          .utf8))
    #expect(json["a"] == .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]))
    #expect(json["b"]?.string == "x\"\\/\né🍎")
    #expect(json["c"] == .object([:]))
  }

  @Test func roundTripsWhatJSONTextWrites() throws {
    let text = "tab\t quote\" back\\ bell\u{07} é 🍎"
    #expect(try JSONValue.parse(Array(JSONText.quoted(text).utf8)).string == text)
  }

  @Test(arguments: [
    "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"unterminated", "\"\u{01}\"",
    "\"\\ud83c\"",
    "[1] 2", "{\"a\":1,}", "\"\\x\"", "1e", String(repeating: "[", count: 100),
  ])
  func refusesMalformedJSON(text: String) {
    #expect(throws: InputError.self) { try JSONValue.parse(Array(text.utf8)) }
  }

  @Test func refusesInvalidUTF8() {
    #expect(throws: InputError.self) { try JSONValue.parse([0x22, 0xFF, 0x22]) }
  }
}
