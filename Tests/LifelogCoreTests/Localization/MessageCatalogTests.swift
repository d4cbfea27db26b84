import LifelogCore
import Testing

/// The `.mo` reader, on the Polish catalog the build embeds and on damaged bytes.
@Suite struct MessageCatalogTests {
  let polish = Language.pl.translation

  @Test func thePolishCatalogIsEmbeddedAndRead() {
    #expect(polish.catalog.count > 90)
    #expect(polish("Summary") == "Podsumowanie")
    #expect(polish("Meals") == "Posiłki")
    #expect(polish("DAY", context: "column") == "DZIEŃ")
    #expect(polish("not in the catalog") == "not in the catalog")
  }

  @Test(arguments: [(1, "1 posiłek"), (2, "2 posiłki"), (5, "5 posiłków"), (22, "22 posiłki")])
  func pluralsComeFromTheCatalog(count: Int, text: String) {
    #expect(polish.plural("%d meal", "%d meals", count: count) == text)
    #expect(
      Language.en.translation.plural("%d meal", "%d meals", count: count)
        == "\(count) meal\(count == 1 ? "" : "s")")
  }

  @Test func datesAreWrittenAsPolesWriteThem() throws {
    let day = try #require(CivilDate(year: 2026, month: 12, day: 6))
    #expect(polish.longDate(day) == "niedziela, 6 grudnia 2026")
    #expect(polish.shortDate(day) == "6 gru")
    #expect(
      polish.dayLabel(try #require(CivilDate(year: 2026, month: 12, day: 5))) == "sob. 5 gru 2026")
    #expect(Language.en.translation.longDate(day) == "Sunday, 6 December 2026")
    #expect(Language.en.translation.dayLabel(day) == "Sun 2026-12-06")
    // A date without its weekday (a week's first and last day): ISO in English, as it was.
    #expect(polish.dateLabel(day) == "6 gru 2026")
    #expect(Language.en.translation.dateLabel(day) == "2026-12-06")
    #expect(polish.decimal("4.5") == "4,5")
  }

  @Test func localesPickTheLanguage() throws {
    #expect(Language.from(environment: ["LANG": "pl_PL.UTF-8"]) == .pl)
    #expect(Language.from(environment: ["LC_ALL": "C", "LANG": "pl_PL.UTF-8"]) == .en)
    #expect(
      Language.from(environment: ["LC_ALL": "", "LC_MESSAGES": "pl", "LANG": "en_US"]) == .pl)
    #expect(Language.from(environment: ["LANG": "de_DE.UTF-8"]) == .en)
    #expect(Language.usesLetterPaper(environment: ["LANG": "en_US.UTF-8"]))
    #expect(!Language.usesLetterPaper(environment: ["LANG": "pl_PL.UTF-8"]))
    #expect(throws: InputError("Unknown language 'de'; use one of: en, pl")) {
      try Language(named: "de")
    }
  }

  /// Every cut of the catalog, and every single byte changed in its tables, is an error or a
  /// catalog, never a trap.
  @Test func damagedCatalogsAreErrorsNotTraps() throws {
    let bytes = EmbeddedCatalogs.polish
    #expect(try MessageCatalog(mo: bytes).text("Summary") == "Podsumowanie")
    for length in stride(from: 0, to: bytes.count, by: 7) {
      _ = try? MessageCatalog(mo: Array(bytes[..<length]))
    }
    for index in 0..<min(bytes.count, 200) {
      var damaged = bytes
      damaged[index] ^= 0xFF
      _ = try? MessageCatalog(mo: damaged)
    }
    #expect(throws: InputError.self) { try MessageCatalog(mo: Array(repeating: 0, count: 64)) }
  }
}
