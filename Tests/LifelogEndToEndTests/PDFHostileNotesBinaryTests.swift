import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

/// Notes that could break the PDF's layout, read back with poppler-utils: pango markup
/// characters are drawn as text, a 10,000-character note (one word) stays on its line and off
/// the sheet's word lists, and right-to-left text and emoji draw without a trap.
@Suite struct PDFHostileNotesBinaryTests {
  let folder = TemporaryDirectory()
  var path: String { folder.file("lifelog.db") }
  var environment: [String: String] {
    ["LIFELOG_DB": path, "TZ": PolishSampleLog.zone, "LIFELOG_NOW": PolishSampleLog.now]
  }

  static let markup = "<b>bold</b> & <i>x</i> &amp; <span foreground=\"red\">"
  static let longWord = String(repeating: "a", count: 10_000)
  static let rightToLeft = "שלום עולם مرحبا بالعالم"
  static let emoji = "🍎🥐☕️ 👩🏽‍🍳"

  init() throws {
    try PolishSampleLog.build(at: path)
    for (time, note) in [
      // Three times, so the word would be the morning's most frequent.
      ("2026-11-30T07:00:00+01:00", Self.longWord),
      ("2026-12-01T07:00:00+01:00", Self.longWord),
      ("2026-12-04T07:00:00+01:00", Self.longWord),
      ("2026-12-01T07:10:00+01:00", Self.markup),
      ("2026-12-02T07:00:00+01:00", Self.rightToLeft),
      ("2026-12-02T07:10:00+01:00", Self.emoji),
      ("2026-12-03T07:00:00+01:00", String(repeating: "słowo ", count: 1_600)),
    ] {
      let result = try LifelogProcess.run(
        ["add", "snack", note, "--at", time], environment: environment)
      #expect(result.exitCode == 0, "\(result)")
    }
  }

  func tool(_ name: String, _ arguments: [String]) throws -> String {
    let result = try ToolProcess.output("/usr/bin/" + name, arguments)
    #expect(result.status == 0, "\(name): \(result.text)")
    return result.text
  }

  @Test(arguments: ["en", "pl"])
  func hostileNotesKeepTheLayout(language: String) throws {
    let file = folder.file("\(language).pdf")
    let result = try LifelogProcess.run(
      [
        "report", "meals", "--format", "pdf", "--output", file, "--lang", language, "--from",
        PolishSampleLog.from, "--to", PolishSampleLog.to,
      ], environment: environment)
    #expect(result.exitCode == 0, "\(result)")
    // Still the sheet and two weeks: no note pushed a page over.
    let info = try tool("pdfinfo", [file])
    #expect(PDFReportBinaryTests.field("Pages", of: info) == "3", "\(info)")
    // Page 1 still ends with every slot of the word lists, the long word in none of them.
    let sheet = try tool("pdftotext", ["-layout", "-f", "1", "-l", "1", file, "-"])
    let evening = language == "en" ? "Evening (after 18:00)" : "Wieczorem (po 18:00)"
    #expect(sheet.contains(evening), "\(sheet)")
    #expect(!sheet.contains(String(repeating: "a", count: 40)), "\(sheet)")
    // The markup characters are text, drawn as they are.
    let text = try tool("pdftotext", ["-raw", file, "-"])
    #expect(text.contains("<b>bold</b>"), "\(text.suffix(2000))")
    #expect(text.contains("&amp;"))
  }
}
