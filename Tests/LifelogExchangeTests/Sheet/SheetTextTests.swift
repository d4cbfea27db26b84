import LifelogCore
import Testing

@testable import LifelogExchange

/// How a sheet's cells are read: dates and times as people type them, encodings and separators
/// as spreadsheets save CSV, and the `--map` option.
@Suite struct SheetTextTests {
  func local(_ text: String, _ order: SheetDateOrder? = nil) -> (String?, String?) {
    guard case .local(let day, let clock)? = SheetMoment.parse(text, order: order) else {
      return ("unreadable", nil)
    }
    return (day?.date(order: order).map(\.description), clock?.text)
  }

  @Test func datesAsPeopleTypeThem() {
    #expect(local("6.12.2026") == ("2026-12-06", nil))
    #expect(local("06.12.2026 7:30") == ("2026-12-06", "07:30"))
    #expect(local("2026-12-06") == ("2026-12-06", nil))
    #expect(local("2026-12-06T07:30") == ("2026-12-06", "07:30"))
    #expect(local("13/12/2026") == ("2026-12-13", nil))
    #expect(local("12/13/2026") == ("2026-12-13", nil))
    #expect(local("3/4/2026", .monthFirst) == ("2026-03-04", nil))
    #expect(local("3/4/2026", .dayFirst) == ("2026-04-03", nil))
    #expect(local("6 grudnia 2026") == ("2026-12-06", nil))
    #expect(local("6 gru 2026 19:05") == ("2026-12-06", "19:05"))
    #expect(local("1 października 2026") == ("2026-10-01", nil))
    #expect(local("Dec 6, 2026") == ("2026-12-06", nil))
    #expect(local("31.2.2026").0 == "unreadable")
    #expect(
      SheetMoment.parse("2026-12-06T07:30:00+01:00", order: nil)
        == .exact("2026-12-06T07:30:00+01:00"))
  }

  @Test func timesAsPeopleTypeThem() {
    #expect(SheetClock.parse("7:30")?.text == "07:30")
    #expect(SheetClock.parse("07.30")?.text == "07:30")
    #expect(SheetClock.parse("7.30 am")?.text == "07:30")
    #expect(SheetClock.parse("7.30 pm")?.text == "19:30")
    #expect(SheetClock.parse("12 am")?.text == "00:00")
    #expect(SheetClock.parse("7:30:15")?.text == "07:30:15")
    #expect(SheetClock.parse("24:00") == nil)
    #expect(SheetClock.parse("7") == nil)
    #expect(SheetClock.parse("13 pm") == nil)
  }

  @Test func excelSerialsAreDaysSince1899WithTheTimeAsTheFraction() {
    // 46362 is 2026-12-06 in Excel and LibreOffice; .3125 is 07:30.
    #expect(local("46362") == ("2026-12-06", nil))
    #expect(local("46362.3125") == ("2026-12-06", "07:30"))
    #expect(
      SheetMoment.serial(0.5)
        == .local(date: nil, clock: SheetClock(hour: 12, minute: 0, second: 0)))
    #expect(SheetMoment.serial(-1) == nil)
    #expect(SheetMoment.serial(.infinity) == nil)
  }

  @Test func theDatesDecideTheirOrderOrAreRefusedWithTheRowsThatShowIt() throws {
    #expect(
      try SheetDateOrder.decide([(2, "3/4/2026", 3, 4), (3, "13/4/2026", 13, 4)]) == .dayFirst)
    #expect(
      try SheetDateOrder.decide([(2, "3/4/2026", 3, 4), (5, "4/13/2026", 4, 13)]) == .monthFirst)
    #expect(throws: InputError.self) { try SheetDateOrder.decide([(2, "3/4/2026", 3, 4)]) }
    do {
      _ = try SheetDateOrder.decide([(2, "13/4/2026", 13, 4), (7, "4/13/2026", 4, 13)])
      Issue.record("conflicting dates were accepted")
    } catch {
      #expect(error.message.contains("row 2 '13/4/2026'"), "\(error.message)")
      #expect(error.message.contains("row 7 '4/13/2026'"), "\(error.message)")
    }
    #expect(try SheetDateOrder.parse("dd.mm.yyyy") == .dayFirst)
    #expect(try SheetDateOrder.parse("m/d/yyyy") == .monthFirst)
    #expect(throws: InputError.self) { try SheetDateOrder.parse("yyyy") }
  }

  @Test func encodingsAreDetectedAndDecoded() throws {
    let polish = "Posiłek;Co zjadłem;żółć"
    let cp1250: [UInt8] = [0x50, 0x6F, 0x73, 0x69, 0xB3, 0x65, 0x6B]  // "Posiłek"
    #expect(SheetEncoding.detect(cp1250) == .windows1250)
    #expect(try SheetEncoding.windows1250.decode(cp1250) == "Posiłek")
    let utf16: [UInt8] =
      [0xFF, 0xFE] + polish.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    #expect(SheetEncoding.detect(utf16) == .utf16)
    #expect(try SheetEncoding.utf16.decode(utf16) == polish)
    let utf8: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(polish.utf8)
    #expect(SheetEncoding.detect(utf8) == .utf8)
    #expect(try SheetEncoding.utf8.decode(utf8) == polish)
    #expect(throws: InputError.self) { try SheetEncoding.utf8.decode(cp1250) }
  }

  @Test func csvAsSpreadsheetsSaveIt() throws {
    let text = "Data;Co zjadłem;Kcal\r\n6.12.2026;\"zupa; \"\"pomidorowa\"\"\";350,5\r\n;;\r\n"
    let table = try CSVSheet.read(Array(text.utf8), name: "x.csv")
    #expect(table.rows.count == 2)  // the empty row `;;` is left out
    #expect(
      table.rows[1].cells == [.text("6.12.2026"), .text("zupa; \"pomidorowa\""), .text("350,5")])
    #expect(CSVSheet.detectSeparator(Array("a,b,\"c;d;e\"\n".utf8)) == ",")
    #expect(CSVSheet.detectSeparator(Array("a\tb\tc\n".utf8)) == "\t")
    #expect(SheetNumber.decimal("350,5") == "350.5")
    #expect(SheetNumber.decimal("1 200,5") == "1200.5")
    #expect(SheetNumber.decimal("1,200.5") == nil)
  }

  @Test func theMapOptionNamesColumnsByHeaderOrLetter() throws {
    let mapping = try SheetMapping(parsing: ["at=Data+Godzina", "activity=c", "note=Co zjadłem"])
    #expect(mapping.text == "--map at=Data+Godzina --map activity=c --map note=\"Co zjadłem\"")
    let columns = try mapping.resolved(header: ["Data", "Godzina", "Posiłek", "Co zjadłem"])
    #expect(columns[.at] == [0, 1])
    #expect(columns[.activity] == [2])
    #expect(columns[.note] == [3])
    #expect(throws: InputError.self) { try SheetMapping(parsing: ["when=A"]) }
    #expect(throws: InputError.self) { try SheetMapping(parsing: ["note=A+B"]) }
    #expect(throws: InputError.self) { try mapping.resolved(header: ["Data", "Godzina"]) }
    #expect(ColumnLetters.name(27) == "AB")
    #expect(ColumnLetters.index("ab") == 27)
  }

  /// The id of a sheet row never changes: an earlier import's entries must be found again.
  ///
  /// The value is SHA-256 of `lifelog-import:sheet3:a\0b2:12` as Python's hashlib gives it.
  @Test func aSheetRowsIdIsTheSameAsEverBefore() {
    #expect(SheetRecordID.make("a\u{0}b", occurrence: 12) == "07ab8a64-aa6e-8fd2-8abb-d460b0599c45")
  }
}
