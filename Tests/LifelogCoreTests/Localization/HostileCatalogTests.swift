import LifelogCore
import Testing

/// Compiled catalogs (.mo) made to hurt the reader.
///
/// Offsets past the end, counts that overflow,
/// strings that all point at the same megabyte, a string of NULs, plural rules that nest or
/// divide by zero, a catalog of 100 MB. Each is an error (and English, with a note) or a
/// harmless catalog, read in bounded time and memory; never a trap.
@Suite struct HostileCatalogTests {
  /// A little-endian .mo file: the header, the originals' and translations' tables, then the
  /// strings, as msgfmt lays them out.
  static func mo(_ messages: [(String, String)]) -> [UInt8] {
    let count = messages.count
    var strings: [UInt8] = []
    var originals: [(Int, Int)] = []
    var translations: [(Int, Int)] = []
    let stringsStart = 28 + count * 16
    for (original, _) in messages {
      originals.append((original.utf8.count, stringsStart + strings.count))
      strings += Array(original.utf8) + [0]
    }
    for (_, translation) in messages {
      translations.append((translation.utf8.count, stringsStart + strings.count))
      strings += Array(translation.utf8) + [0]
    }
    var bytes: [UInt8] = []
    func word(_ value: Int) {
      let value = UInt32(truncatingIfNeeded: value)
      bytes += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
    }
    bytes += [0xDE, 0x12, 0x04, 0x95]
    word(0)
    word(count)
    word(28)
    word(28 + count * 8)
    word(0)
    word(0)
    for (length, offset) in originals + translations {
      word(length)
      word(offset)
    }
    return bytes + strings
  }

  static let header = (
    "",
    "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"
  )

  /// The builder makes what the reader reads (so the hostile variants below are of a real file).
  @Test func aBuiltCatalogIsRead() throws {
    let catalog = try MessageCatalog(
      mo: Self.mo([
        Self.header, ("Summary", "Podsumowanie"),
        ("%d meal", "%d posiłek\0%d posiłki\0%d posiłków"),
      ]))
    #expect(catalog.text("Summary") == "Podsumowanie")
    #expect(catalog.plural("%d meal", "%d meals", count: 5) == "%d posiłków")
  }

  /// Offsets and lengths past the end, and a count that would overflow the tables, are errors.
  @Test func pointersOutsideTheFileAreErrors() {
    let good = Self.mo([Self.header, ("Summary", "Podsumowanie")])
    func patched(_ at: Int, _ value: UInt32) -> [UInt8] {
      var bytes = good
      for shift in 0..<4 {
        bytes[at + shift] = UInt8(truncatingIfNeeded: value >> UInt32(shift * 8))
      }
      return bytes
    }
    for (at, value) in [
      (8, UInt32.max), (8, 0x2000_0000), (12, UInt32.max - 3), (16, UInt32(good.count)),
      (28, UInt32.max), (32, UInt32.max), (36, UInt32(good.count)), (44, 0xFFFF_FFF0),
    ] as [(Int, UInt32)] {
      #expect(throws: InputError.self, "word at \(at) = \(value)") {
        try MessageCatalog(mo: patched(at, value))
      }
    }
  }

  /// 100,000 entries that all point at the same 800 KB would be 80 GB to copy: refused at once,
  /// because what a catalog's entries point at cannot add up to more than the file.
  @Test(.timeLimit(.minutes(2))) func entriesSharingOneHugeStringAreRefused() {
    let count = 100_000
    var bytes: [UInt8] = [0xDE, 0x12, 0x04, 0x95]
    func word(_ value: Int) {
      bytes += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: UInt32(value) >> UInt32($0)) }
    }
    word(0)
    word(count)
    word(28)
    word(28)  // the translations' table is the originals' table
    word(0)
    word(0)
    let size = 28 + count * 8
    for _ in 0..<count {
      word(size - 1)  // the whole file, less a byte
      word(0)
    }
    #expect(bytes.count == size)
    #expect(throws: InputError.self) { try MessageCatalog(mo: bytes) }
  }

  /// A translation of a million NULs is a few empty forms, not a million.
  @Test func aStringOfNULsIsAFewForms() throws {
    let nuls = String(repeating: "\0", count: 1_000_000)
    let catalog = try MessageCatalog(mo: Self.mo([Self.header, ("%d meal", nuls)]))
    #expect(catalog.plural("%d meal", "%d meals", count: 2) == "%d meals")
  }

  /// A plural rule that divides by zero picks a form; one nested past the limit, or a catalog
  /// over 16 MiB (here 100 MB), is an error, and the language falls back to English with a note.
  @Test func hostileRulesAndSizesFallBackToEnglishWithANote() throws {
    let dividing = (
      "", "Plural-Forms: nplurals=3; plural=n / 0 + n % (n - n) ? 1 : (n / (n - 5));\n"
    )
    let catalog = try MessageCatalog(mo: Self.mo([dividing, ("%d meal", "a\0b\0c")]))
    for n in [0, 1, 5, 22, Int.max, Int.min] {
      #expect((0..<3).contains(catalog.plural.form(for: n)))
    }
    let nested = (
      "",
      "Plural-Forms: nplurals=2; plural=" + String(repeating: "(n ? ", count: 80) + "1"
        + String(repeating: " : 0)", count: 80) + ";\n"
    )
    let hundredMegabytes = [UInt8](repeating: 0, count: 100 << 20)
    for bytes in [Self.mo([nested, ("Summary", "Podsumowanie")]), hundredMegabytes, []] {
      let (translation, problem) = Translation.reading(.pl, mo: bytes)
      #expect(translation.language == .en)
      #expect(translation("Summary") == "Summary")
      #expect(problem?.contains("'pl' message catalog cannot be read") == true, "\(problem ?? "")")
      #expect(problem?.hasSuffix("writing English") == true)
    }
    #expect(Translation.reading(.pl, mo: EmbeddedCatalogs.polish).problem == nil)
    #expect(Language.pl.catalogProblem == nil)
  }
}
