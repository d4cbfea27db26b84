import LifelogCore
import Testing

@testable import LifelogExchange

/// An error naming a sheet's columns or a workbook's sheets shows the first 20, then how many
/// more, each name cut to 60 characters: a hostile file cannot make a message of megabytes.
@Suite struct SheetNameListTests {
  @Test func twentyNamesAreShownWhole() {
    let names = (1...20).map { "c\($0)" }
    let text = SheetNameList.joined(names, SheetNameList.quoted)
    #expect(text == names.map { "'\($0)'" }.joined(separator: ", "))
  }

  @Test func pastTwentyTheRestAreCounted() {
    let text = SheetNameList.joined((1...5_000).map { "c\($0)" }, SheetNameList.quoted)
    #expect(text.hasSuffix("'c19', 'c20', … and 4980 more"), "\(text)")
    #expect(!text.contains("'c21'"))
  }

  @Test func aLongNameIsCutTo60Characters() {
    #expect(SheetNameList.quoted(String(repeating: "ż", count: 60)).count == 62)
    let cut = SheetNameList.quoted(String(repeating: "ż", count: 100_000))
    #expect(cut == "'" + String(repeating: "ż", count: 60) + "…'")
  }

  /// One `Character` of a letter and 100,000 combining marks is cut like 100,001 characters.
  @Test func aNameOfOneCharacterWithManyCombiningMarksIsCutToo() {
    let name = "e" + String(repeating: "\u{301}", count: 100_000)
    let cut = SheetNameList.quoted(name)
    #expect(cut.unicodeScalars.count == 60 + 3, "\(cut.utf8.count) bytes")
    #expect(SheetNameList.isLong(name))
    #expect(!SheetNameList.isLong(String(repeating: "ż", count: 60)))
  }

  /// A workbook of 300 sheets, asked for one it does not have, names its first 20.
  @Test func aMissingSheetNamesTheFirst20Sheets() {
    let names = (1...300).map { "Sheet \($0)" }
    do {
      _ = try SheetChoice.pick(names, "Nope", path: "book.xlsx")
      Issue.record("a missing sheet was picked")
    } catch {
      #expect(
        error.message.hasSuffix("20 'Sheet 20', … and 280 more"), "\(error.message)")
      #expect(!error.message.contains("'Sheet 21'"))
    }
  }

  /// A `--map` naming a column a 5,000-column sheet does not have names its first 20 columns.
  @Test func aMissingColumnNamesTheFirst20Columns() throws {
    let mapping = try SheetMapping(parsing: ["at=Kiedy"])
    do {
      _ = try mapping.resolved(header: (0..<5_000).map { "c\($0)" })
      Issue.record("a missing column was found")
    } catch {
      #expect(error.message.hasSuffix("T 'c19', … and 4980 more"), "\(error.message)")
      #expect(error.message.utf8.count < 500, "\(error.message.utf8.count) bytes")
    }
  }
}
