import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

/// The PDF meal report keeps the rules every other format keeps, read back with pdftotext: a gap
/// within target is one the rule does not flag (both its ends), and today is marked unfinished.
@Suite struct PDFSheetRulesBinaryTests {
  let folder = TemporaryDirectory()
  var path: String { folder.file("lifelog.db") }
  var environment: [String: String] {
    ["LIFELOG_DB": path, "TZ": PolishSampleLog.zone, "LIFELOG_NOW": PolishSampleLog.now]
  }
  static let range = ["--from", PolishSampleLog.from, "--to", PolishSampleLog.to]

  init() throws { try PolishSampleLog.build(at: path) }

  func run(_ arguments: [String]) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment)
  }

  /// The PDF's text, spaces left out (pdftotext drops the small font's spaces).
  func pdfText(_ extra: [String] = []) throws -> String {
    let file = folder.file("report-\(extra.joined()).pdf")
    let result = try run(
      ["report", "meals", "--format", "pdf", "--output", file] + Self.range + extra)
    #expect(result.exitCode == 0, "\(result)")
    let text = try ToolProcess.output("/usr/bin/pdftotext", ["-layout", file, "-"])
    #expect(text.status == 0, "\(text.text)")
    return text.text.replacingOccurrences(of: " ", with: "")
  }

  /// With a minimum gap set, a gap shorter than it is not within target: the sheet's count is
  /// the gaps the JSON report does not flag, not those under the maximum alone.
  @Test func withinTargetRespectsTheMinimumGap() throws {
    #expect(try run(["settings", "set", "mealGapHours", "6"]).exitCode == 0)
    #expect(try run(["settings", "set", "mealGapMinHours", "4"]).exitCode == 0)
    let json = try run(["report", "meals", "--format", "json"] + Self.range)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let summary = try #require(object?["summary"] as? [String: Any])
    let gaps = try #require(summary["gaps"] as? Int)
    let flagged = try #require(summary["flaggedGaps"] as? Int)
    let short = try #require(summary["shortGaps"] as? Int)
    let long = try #require(summary["longGaps"] as? Int)
    #expect(short > 0, "the sample has gaps under 4h")
    let text = try pdfText(["--lang", "en"])
    #expect(text.contains("\(gaps - flagged)of\(gaps)"), "\(text.prefix(2500))")
    #expect(!text.contains("\(gaps - long)of\(gaps)"), "\(text.prefix(2500))")
  }

  /// Today (the sample's "now" is its last day, 21:00) is marked as not over on the week pages,
  /// as the text, Markdown and HTML reports mark it.
  @Test(arguments: [("en", "(sofar)"), ("pl", "(dotejpory)")])
  func todayIsMarkedSoFar(language: String, mark: String) throws {
    let text = try pdfText(["--lang", language])
    #expect(text.contains(mark), "\(text.suffix(3000))")
  }

  /// The activity report as a PDF: the period, every activity's totals against its target on
  /// page 1, then a page per week; the same bytes for the same log and "now".
  @Test func theActivityReportIsAPDFToo() throws {
    #expect(try run(["activity", "edit", "snack", "--target", "5 times/week"]).exitCode == 0)
    let file = folder.file("activity.pdf")
    let arguments =
      ["report", "activity", "--format", "pdf", "--lang", "pl", "--output", file] + Self.range
    let result = try run(arguments)
    #expect(result.exitCode == 0, "\(result)")
    #expect(
      result.stdout.hasPrefix("Zapisano raport aktywności za 2026-11-23–2026-12-06 do '"),
      "\(result)")
    let info = try ToolProcess.output("/usr/bin/pdfinfo", [file])
    #expect(PDFReportBinaryTests.field("Pages", of: info.text) == "3", "\(info.text)")
    let text = try ToolProcess.output("/usr/bin/pdftotext", ["-layout", file, "-"]).text
    for expected in [
      "Aktywności", "Anna Żółkiewska", "poniedziałek, 23 listopada 2026", "AKTYWNOŚĆ", "breakfast",
      "snack", "10 razy", "90%", "23 lis 2026 – 29 lis 2026", "30 lis 2026 – 6 gru 2026", "80%",
      "snack 5 razy/tydzień",
    ] {
      #expect(text.contains(expected), "\(expected) in \(text)")
    }
    let again = folder.file("again.pdf")
    #expect(
      try run(
        ["report", "activity", "--format", "pdf", "--lang", "pl", "--output", again]
          + Self.range
      ).exitCode == 0)
    #expect(
      FileManager.default.contents(atPath: file) == FileManager.default.contents(atPath: again))
  }
}
