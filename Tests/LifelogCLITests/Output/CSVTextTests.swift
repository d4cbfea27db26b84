import Testing

@testable import LifelogCLI

/// RFC 4180 fields and rows, as `--format csv` writes them.
@Suite struct CSVTextTests {
  @Test func aPlainFieldIsWrittenAsItIs() {
    #expect(CSVText.field("oatmeal") == "oatmeal")
    #expect(CSVText.field("") == "")
    #expect(CSVText.field(" spaces stay ") == " spaces stay ")
  }

  @Test func aFieldWithACommaQuoteOrLineBreakIsQuotedWithQuotesDoubled() {
    #expect(CSVText.field("soup, bread") == #""soup, bread""#)
    #expect(CSVText.field(#"the "big" one"#) == #""the ""big"" one""#)
    #expect(CSVText.field("two\nlines") == "\"two\nlines\"")
    #expect(CSVText.field("cr\r") == "\"cr\r\"")
  }

  @Test func aRowJoinsItsFieldsWithCommasAndEndsWithCRLF() {
    #expect(CSVText.row(["a", "b,c", ""]) == "a,\"b,c\",\r\n")
    #expect(CSVText.row([]) == "\r\n")
  }
}
