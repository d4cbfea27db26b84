import Foundation
import LifelogCLITestSupport
import LifelogSQLite
import LifelogTestSupport
import Testing

/// `export --format xlsx` and `report meals --format xlsx` read back by tools we did not write:
/// openpyxl (pinned in scripts/python-tools.sh, in .build/venv) through scripts/xlsx-dump.py, and
/// Gnumeric's `ssconvert` (Debian's gnumeric).
@Suite struct SpreadsheetExportTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
  let folder = TemporaryDirectory()

  var environment: [String: String] {
    [
      "LIFELOG_DB": folder.file("log.db"), "TZ": "Europe/Warsaw",
      "LIFELOG_NOW": "2026-12-20T12:00:00+01:00",
    ]
  }

  /// Two weeks of meals at three offsets, notes with Polish letters and every character that
  /// starts a formula, a duration past a day and a quantity. (`'=żółć` is a guarded CSV field,
  /// so it is imported as `=żółć`.)
  static let csv = """
    at,activity,kind,duration,note,quantity,unit,tags\r
    2026-11-30T07:30:00+01:00,śniadanie,meal,,"=1+2, owsianka z jabłkiem",,,\r
    2026-11-30T12:15:00+01:00,obiad,meal,,+48 zupa żurek,,,dom\r
    2026-11-30T19:00:00+01:00,kolacja,meal,,-ryba,,,\r
    2026-12-01T08:00:00-05:00,breakfast,meal,,@SUM(A1),,,travel\r
    2026-12-01T20:00:00-05:00,dinner,meal,,"two\nlines",,,\r
    2026-12-02T23:30:00+05:30,sleep,sleep,93600,,,,\r
    2026-12-03T09:00:00+01:00,water,other,,,0.5,l,\r
    2026-12-08T08:00:00+01:00,śniadanie,meal,,'=żółć,,,\r
    2026-12-08T14:30:00+01:00,obiad,meal,,,,,\r

    """

  init() throws {
    let imported = try LifelogProcess.run(
      ["import", "-"], environment: environment, input: Self.csv)
    #expect(imported.exitCode == 0, "\(imported)")
  }

  @Test func everyEntryIsARowWithDateCellsAndNotesIntact() throws {
    let file = folder.file("log.xlsx")
    let exported = try lifelog(["export", "--format", "xlsx", "--output", file])
    #expect(exported.stdout == "Exported 9 entries to '\(file)'\n")
    let sheets = try dump(file)
    #expect(sheets.map { $0["name"] as? String } == ["Entries"])
    let sheet = try #require(sheets.first)
    #expect(sheet["freeze"] as? String == "A2", "the header row is frozen")
    #expect(sheet["filter"] as? String == "A1:J10", "an autofilter over every row and column")
    let rows = try #require(sheet["rows"] as? [[Any]])
    #expect(rows.count == 10, "the header and one row per entry")
    let header = rows[0].map { ($0 as? [String: Any])?["value"] as? String }
    #expect(
      header == [
        "Date and time", "UTC offset", "Activity", "Kind", "Duration", "Quantity", "Unit", "Note",
        "Tags", "ID",
      ])
    let entries = try jsonLines(try lifelog(["export", "--format", "jsonl"]).stdout)
    for (row, entry) in zip(rows.dropFirst(), entries) {
      let at = try cell(row, 0)
      #expect(at["type"] as? String == "d" || at["date"] as? Bool == true, "\(at)")
      let logged = try #require(entry["at"] as? String)
      // The local time as logged, without its offset, which is the next cell.
      #expect(at["value"] as? String == String(logged.prefix(19)), "\(at) \(logged)")
      #expect((try cell(row, 1))["value"] as? String == String(logged.suffix(6)))
      #expect((try cell(row, 2))["value"] as? String == entry["activity"] as? String)
      #expect((try cell(row, 9))["value"] as? String == entry["id"] as? String)
      if let note = entry["note"] as? String {
        let noteCell = try cell(row, 7)
        #expect(noteCell["type"] as? String == "s", "a string cell, never a formula: \(noteCell)")
        #expect(noteCell["value"] as? String == note)
      }
      if let duration = entry["duration"] as? Int {
        let durationCell = try cell(row, 4)
        #expect(durationCell["date"] as? Bool == true, "\(durationCell)")
        #expect(durationCell["value"] as? Double == Double(duration), "\(durationCell)")
      }
    }
    let notes = rows.dropFirst().compactMap { ($0[7] as? [String: Any])?["value"] as? String }
    #expect(notes.contains("=1+2, owsianka z jabłkiem") && notes.contains("=żółć"))
    #expect(
      notes.contains("@SUM(A1)") && notes.contains("-ryba") && notes.contains("+48 zupa żurek"))
    let widths = try #require(sheet["widths"] as? [String: Double])
    #expect((widths["H"] ?? 0) >= 25, "the note column fits its notes: \(widths)")
    try expectGnumericOpens(file, showing: "owsianka z jabłkiem")
  }

  @Test func theMealReportIsASummarySheetThenASheetPerWeekInPolish() throws {
    let file = folder.file("meals.xlsx")
    let range = ["--from", "2026-11-30", "--to", "2026-12-13", "--lang", "pl"]
    try lifelog(["report", "meals"] + range + ["--format", "xlsx", "--output", file])
    let sheets = try dump(file)
    #expect(
      sheets.map { $0["name"] as? String } == [
        "Podsumowanie", "Tydzień 2026-11-30", "Tydzień 2026-12-07",
      ])
    // The summary is the text report's, figure for figure.
    let text = try lifelog(["report", "meals"] + range).stdout
    let summaryLines = text.components(separatedBy: "\nPodsumowanie\n")[1]
      .split(separator: "\n").map { line in
        line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")
          .filter { !$0.isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }
      }
    let summary = try #require(sheets[0]["rows"] as? [[Any]]).map { row in
      row.compactMap { ($0 as? [String: Any])?["value"] as? String }
    }
    #expect(summary.first == ["Podsumowanie", "Wartość"])
    #expect(Array(summary.dropFirst()) == summaryLines)
    let week = try #require(sheets[1]["rows"] as? [[Any]])
    #expect(
      week[0].compactMap { ($0 as? [String: Any])?["value"] as? String } == [
        "Dzień", "Godzina", "Aktywność", "Notatka", "Przerwa", "Oznaczenie",
      ])
    #expect(sheets[1]["freeze"] as? String == "A2")
    // Meals of the first week: three on Monday, two on Tuesday; five days without meals.
    let meals = week.dropFirst().filter { $0.count > 1 && $0[1] is [String: Any] }
    #expect(meals.count == 5)
    let first = meals[0]
    #expect((try cell(first, 0))["date"] as? Bool == true)
    #expect((try cell(first, 0))["value"] as? String == "2026-11-30T00:00:00")
    #expect((try cell(first, 1))["value"] as? String == "07:30:00", "the time as logged")
    #expect((try cell(first, 3))["value"] as? String == "=1+2, owsianka z jabłkiem")
    #expect((try cell(first, 3))["type"] as? String == "s")
    let lunch = meals[1]
    #expect((try cell(lunch, 4))["value"] as? Double == 4 * 3600 + 45 * 60, "the gap, a time cell")
    #expect((try cell(lunch, 5))["value"] as? String == "!", "over the 3-hour rule")
    let newYork = meals[3]
    #expect((try cell(newYork, 1))["value"] as? String == "08:00:00", "logged at -05:00")
    #expect(week.count == 1 + 5 + 5, "the header, five meals, five days without meals")
    try expectGnumericOpens(file, showing: "Podsumowanie")
  }

  @Test func aSpreadsheetNeedsAnOutputFile() throws {
    for arguments in [["export", "--format", "xlsx"], ["report", "meals", "--format", "xlsx"]] {
      let result = try LifelogProcess.run(arguments, environment: environment)
      #expect(result.exitCode == 64, "\(result)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.hasPrefix("Error: "), "\(result)")
      #expect(result.stderr.contains("give --output FILE"), "\(result)")
    }
    let activity = try LifelogProcess.run(
      ["report", "activity", "--format", "xlsx", "--output", folder.file("a.xlsx")],
      environment: environment)
    #expect(activity.exitCode == 64, "\(activity)")
  }

  @Test func aReportOfMoreWeeksThanAWorkbookHoldsIsRefusedBeforeWriting() throws {
    let file = folder.file("long.xlsx")
    let result = try LifelogProcess.run(
      [
        "report", "meals", "--from", "2000-01-01", "--to", "2026-12-13", "--format", "xlsx",
        "--output", file,
      ], environment: environment)
    #expect(result.exitCode == 65, "\(result)")
    #expect(result.stderr.contains("a sheet per week, at most 530"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: file))
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!left.contains { $0.hasPrefix(".") }, "no staging folder is left: \(left)")
  }

  /// A note that came by sync may hold characters XML cannot carry (a bell, a NUL, U+FFFE): each
  /// becomes U+FFFD, and the workbook still opens everywhere.
  @Test func charactersXMLCannotCarryBecomeReplacementCharacters() throws {
    let database = try Database(path: folder.file("log.db"))
    try database.execute(
      sql: "UPDATE entry SET note = 'bell' || char(7) || 'nul' || char(0) || 'end' || char(65534)"
        + " WHERE note = '-ryba'")
    let file = folder.file("hostile.xlsx")
    try lifelog(["export", "--format", "xlsx", "--output", file])
    let rows = try #require(try dump(file).first?["rows"] as? [[Any]])
    let notes = rows.compactMap { ($0[7] as? [String: Any])?["value"] as? String }
    #expect(notes.contains("bell\u{FFFD}nul\u{FFFD}end\u{FFFD}"), "\(notes)")
    try expectGnumericOpens(file, showing: "owsianka z jabłkiem")
  }

  /// The report's CSV guards notes as the export's does (the xlsx needs no guard: string cells).
  @Test func theReportCSVGuardsFormulaNotesToo() throws {
    let csv = try lifelog(
      ["report", "meals", "--from", "2026-11-30", "--to", "2026-12-06", "--format", "csv"]
    ).stdout
    #expect(csv.contains(",\"'=1+2, owsianka z jabłkiem\","), "\(csv)")
    #expect(csv.contains(",\"'+48 zupa żurek\","), "\(csv)")
    #expect(csv.contains(",\"'@SUM(A1)\","), "\(csv)")
  }

  @Test func theExportsHeaderIsInTheLanguageAsked() throws {
    let file = folder.file("pl.xlsx")
    try lifelog(["export", "--format", "xlsx", "--lang", "pl", "--output", file])
    let sheet = try #require(try dump(file).first)
    #expect(sheet["name"] as? String == "Wpisy")
    let header = try #require((sheet["rows"] as? [[Any]])?.first).map {
      ($0 as? [String: Any])?["value"] as? String
    }
    #expect(header.prefix(3) == ["Data i godzina", "Przesunięcie UTC", "Aktywność"])
  }

  // MARK: - Helpers

  @discardableResult
  private func lifelog(_ arguments: [String]) throws -> CommandResult {
    let result = try LifelogProcess.run(arguments, environment: environment)
    #expect(result.exitCode == 0, "\(arguments): \(result)")
    return result
  }

  private func cell(_ row: [Any], _ column: Int) throws -> [String: Any] {
    try #require(row.count > column ? row[column] as? [String: Any] : nil, "column \(column)")
  }

  private func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  /// The sheets openpyxl reads from `file` (scripts/xlsx-dump.py).
  private func dump(_ file: String) throws -> [[String: Any]] {
    let output = try Subprocess.run(
      try CalendarExportTests.python(), [Self.repository + "/scripts/xlsx-dump.py", file])
    try #require(output.status == 0, "xlsx-dump.py: \(output.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    return try #require((object as? [String: Any])?["sheets"] as? [[String: Any]])
  }

  /// Gnumeric's ssconvert opens `file` and converts its first sheet to CSV, showing `text`,
  /// without a word of complaint.
  private func expectGnumericOpens(_ file: String, showing text: String) throws {
    let converted = folder.file("converted-\(UUID().uuidString).csv")
    let output = try Subprocess.run(
      "/usr/bin/ssconvert", ["--export-type=Gnumeric_stf:stf_csv", file, converted])
    #expect(output.status == 0, "ssconvert: \(output.stderr)")
    #expect(!output.stderr.contains("rror"), "ssconvert: \(output.stderr)")
    let csv = try String(contentsOfFile: converted, encoding: .utf8)
    #expect(csv.contains(text), "\(csv.prefix(300))")
  }
}
