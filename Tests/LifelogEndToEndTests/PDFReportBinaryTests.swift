import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

/// The PDF meal report through the real binary, read back with poppler-utils (pdftotext,
/// pdfinfo, pdffonts, pdftoppm): real text with the Polish letters, a page for the sheet and one
/// per week, every font embedded, and the same bytes for the same log and "now".
@Suite struct PDFReportBinaryTests {
  let folder = TemporaryDirectory()
  var path: String { folder.file("lifelog.db") }

  init() throws { try PolishSampleLog.build(at: path) }

  func report(
    _ file: String, _ extra: [String] = [], environment: [String: String] = [:]
  ) throws
    -> CommandResult
  {
    let base = [
      "LIFELOG_DB": path, "TZ": PolishSampleLog.zone, "LIFELOG_NOW": PolishSampleLog.now,
    ]
    return try LifelogProcess.run(
      [
        "report", "meals", "--format", "pdf", "--output", folder.file(file), "--from",
        PolishSampleLog.from, "--to", PolishSampleLog.to,
      ] + extra,
      environment: base.merging(environment) { $1 })
  }

  func tool(_ name: String, _ arguments: [String]) throws -> String {
    let result = try ToolProcess.output("/usr/bin/" + name, arguments)
    #expect(result.status == 0, "\(name): \(result.text)")
    return result.text
  }

  @Test func thePolishSheetHasEveryNoteTheDatesAndAPagePerWeek() throws {
    let result = try report("pl.pdf", ["--lang", "pl"])
    #expect(result.exitCode == 0, "\(result)")
    let text = try tool("pdftotext", ["-layout", folder.file("pl.pdf"), "-"])
    for note in PolishSampleLog.notes {
      #expect(text.contains(note), "\(note) in \(text.prefix(3000))")
    }
    for expected in [
      "Rytm posiłków", "Anna Żółkiewska", "poniedziałek, 23 listopada 2026",
      "niedziela, 6 grudnia 2026",
      "Kiedy są posiłki", "Najdłuższe przerwy w jedzeniu", "Tydzień: pon. 23 lis 2026",
      "Sporządzono niedziela, 6 grudnia 2026, 21:00",
    ] {
      #expect(text.contains(expected), "\(expected) in \(text.prefix(3000))")
    }
    // Page numbers on every page (pdftotext drops the small font's spaces: "1/3").
    let squeezed = text.replacingOccurrences(of: " ", with: "")
    for page in ["1/3", "2/3", "3/3"] { #expect(squeezed.contains(page)) }
    // The sheet, then the two weeks of 2026-11-23 to 2026-12-06.
    let info = try tool("pdfinfo", [folder.file("pl.pdf")])
    #expect(Self.field("Pages", of: info) == "3", "\(info)")
    #expect(Self.field("Page size", of: info) == "595.28 x 841.89 pts (A4)", "\(info)")
  }

  /// Gaps flagged both ways: the week pages' legend names the three kinds, and the table marks a
  /// short gap `<` and a long one `!`, as the text report does.
  @Test func theWeekPagesShowGapsTooShortAndTooLong() throws {
    let base = [
      "LIFELOG_DB": path, "TZ": PolishSampleLog.zone, "LIFELOG_NOW": PolishSampleLog.now,
    ]
    for (name, value) in [("mealGapHours", "6"), ("mealGapMinHours", "4")] {
      let set = try LifelogProcess.run(["settings", "set", name, value], environment: base)
      #expect(set.exitCode == 0, "\(set)")
    }
    for (language, expected) in [
      ("en", ["gap from 4h to 6h", "gap under 4h", "gap over 6h", "3h30m <", "6h30m !"]),
      ("pl", ["przerwa od 4h do 6h", "przerwa poniżej 4h", "przerwa ponad 6h", "3h30m <"]),
    ] {
      let result = try report("\(language).pdf", ["--lang", language])
      #expect(result.exitCode == 0, "\(result)")
      let text = try tool("pdftotext", ["-layout", folder.file("\(language).pdf"), "-"])
      // pdftotext may drop the small font's spaces, so compare without them.
      let squeezed = text.replacingOccurrences(of: " ", with: "")
      for phrase in expected {
        #expect(
          squeezed.contains(phrase.replacingOccurrences(of: " ", with: "")),
          "\(phrase) in \(text.prefix(3000))")
      }
    }
  }

  /// A field of pdfinfo's output, its value trimmed.
  static func field(_ name: String, of info: String) -> String? {
    info.split(separator: "\n").first { $0.hasPrefix(name + ":") }
      .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
  }

  @Test func everyFontIsEmbedded() throws {
    #expect(try report("en.pdf", ["--lang", "en"]).exitCode == 0)
    let fonts = try tool("pdffonts", [folder.file("en.pdf")])
    let rows = fonts.split(separator: "\n").dropFirst(2)
    #expect(!rows.isEmpty, "\(fonts)")
    for row in rows {
      // name, type, encoding, then emb sub uni: the first "yes" is "embedded".
      let columns = row.split(separator: " ", omittingEmptySubsequences: true)
      let flags = columns.suffix(5).prefix(3)
      #expect(flags.first == "yes", "not embedded: \(row)")
    }
  }

  @Test func theSameLogAndNowGiveTheSameBytes() throws {
    #expect(try report("a.pdf", ["--lang", "pl"]).exitCode == 0)
    #expect(try report("b.pdf", ["--lang", "pl"]).exitCode == 0)
    let first = try #require(FileManager.default.contents(atPath: folder.file("a.pdf")))
    let second = try #require(FileManager.default.contents(atPath: folder.file("b.pdf")))
    #expect(first == second)
    #expect(first.starts(with: Data("%PDF-".utf8)))
    let info = try tool("pdfinfo", ["-isodates", folder.file("a.pdf")])
    #expect(Self.field("CreationDate", of: info) == "2026-12-06T21:00:00+01", "\(info)")
  }

  @Test func letterPaperFromTheFlagOrTheLocale() throws {
    #expect(try report("l.pdf", ["--paper", "letter"]).exitCode == 0)
    #expect(
      Self.field("Page size", of: try tool("pdfinfo", [folder.file("l.pdf")]))
        == "612 x 792 pts (letter)")
    #expect(try report("us.pdf", environment: ["LANG": "en_US.UTF-8"]).exitCode == 0)
    #expect(
      Self.field("Page size", of: try tool("pdfinfo", [folder.file("us.pdf")]))
        == "612 x 792 pts (letter)")
    let bad = try report("x.pdf", ["--paper", "a5"])
    #expect(bad.exitCode == 64 && bad.stderr.contains("use a4 or letter"), "\(bad)")
  }

  @Test func aPDFNeedsAFileAndTheMealReport() throws {
    let base = ["LIFELOG_DB": path, "TZ": PolishSampleLog.zone, "LIFELOG_NOW": PolishSampleLog.now]
    let noFile = try LifelogProcess.run(["report", "--format", "pdf"], environment: base)
    #expect(noFile.exitCode == 64 && noFile.stderr.contains("give --output FILE"), "\(noFile)")
    let missing = try report("missing/report.pdf")
    #expect(missing.exitCode == 65 && missing.stderr.contains("does not exist"), "\(missing)")
  }

  /// Without a font that has the Polish letters (fontconfig given an empty font folder), the
  /// report says which package to install and exits 69, writing nothing.
  @Test func aMissingFontNamesThePackage() throws {
    let config = folder.file("fonts.conf")
    try """
    <?xml version="1.0"?>
    <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
    <fontconfig><dir>\(folder.file("no-fonts"))</dir><cachedir>\(folder.file("cache"))</cachedir></fontconfig>
    """.write(toFile: config, atomically: true, encoding: .utf8)
    let result = try report("nofont.pdf", environment: ["FONTCONFIG_FILE": config])
    #expect(result.exitCode == 69, "\(result)")
    #expect(result.stderr.contains("install Debian's fonts-dejavu-core package"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("nofont.pdf")))
  }

  /// Page 1 in English and in Polish as PNGs (docs/reports.md and the README show them): written
  /// to docs/ when RECORD_SNAPSHOTS=1, otherwise only rendered.
  @Test func theSheetRendersToAnImage() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    for language in ["en", "pl"] {
      #expect(try report("\(language).pdf", ["--lang", language]).exitCode == 0)
      let prefix =
        record ? root + "/docs/report-sheet-\(language)" : folder.file("sheet-\(language)")
      _ = try tool(
        "pdftoppm",
        [
          "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", folder.file("\(language).pdf"),
          prefix,
        ])
      #expect(FileManager.default.fileExists(atPath: prefix + ".png"))
    }
  }
}
