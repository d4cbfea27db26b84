import LifelogCore
import Testing

/// The hand-written JSON of `--format json`: keys in the order added, RFC 8259 escapes, and output
/// that the project's own parser reads back.
@Suite struct JSONObjectWriterTests {
  @Test func keysComeOutInTheOrderTheyWereAdded() {
    var object = JSONObjectWriter()
    object.add("z", "last letter")
    object.add("a", 1)
    object.add("m", true)
    #expect(object.result == #"{"z":"last letter","a":1,"m":true}"#)
  }

  @Test func anEmptyObjectIsTwoBraces() {
    #expect(JSONObjectWriter().result == "{}")
  }

  @Test func missingValuesAreNull() {
    var object = JSONObjectWriter()
    object.add("note", nil as String?)
    object.add("duration", nil as Int?)
    object.add("quantity", nil as Double?)
    #expect(object.result == #"{"note":null,"duration":null,"quantity":null}"#)
  }

  @Test func wholeNumbersHaveNoFractionAndOthersKeepIt() {
    var object = JSONObjectWriter()
    object.add("a", 2.0)
    object.add("b", 2.5)
    object.add("c", -0.25)
    object.add("d", 1e20)
    #expect(object.result == #"{"a":2,"b":2.5,"c":-0.25,"d":1e+20}"#)
  }

  @Test func stringsAreEscapedAsRFC8259Requires() {
    #expect(JSONText.quoted("plain") == #""plain""#)
    #expect(JSONText.quoted("a\"b\\c") == #""a\"b\\c""#)
    #expect(JSONText.quoted("\n\r\t\u{01}\u{1f}") == #""\n\r\t\u0001\u001f""#)
    #expect(JSONText.quoted("zażółć ☕") == "\"zażółć ☕\"")
  }

  @Test func whatItWritesParsesBackToTheSameValues() throws {
    var object = JSONObjectWriter()
    object.add("note", "line one\nline \"two\"\u{07}")
    object.add("tags", ["home", "a,b"])
    object.add("quantity", 1.5)
    object.addRaw("nested", #"{"x":[]}"#)
    let parsed = try JSONValue.parse(Array(object.result.utf8))
    #expect(parsed["note"]?.string == "line one\nline \"two\"\u{07}")
    #expect(parsed["tags"] == .array([.string("home"), .string("a,b")]))
    #expect(parsed["quantity"]?.number == 1.5)
    #expect(parsed["nested"] == .object(["x": .array([])]))
  }
}
