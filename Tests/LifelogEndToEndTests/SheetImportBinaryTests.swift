import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog import` of a sheet people kept before lifelog, through the real binary: CSV as Polish
/// Excel saves it (Windows-1250, `;`, `d.m.yyyy`, a decimal comma), UTF-16, the proposed mapping,
/// ambiguous dates, and idempotence.
@Suite struct SheetImportBinaryTests {
  let folder = TemporaryDirectory()

  var environment: [String: String] {
    [
      "LIFELOG_DB": folder.file("log.db"), "TZ": "Europe/Warsaw",
      "LIFELOG_NOW": "2026-12-10T12:00:00+01:00",
    ]
  }

  func lifelog(_ arguments: [String], input: String? = nil) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment, input: input)
  }

  func entries() throws -> [[String: Any]] {
    let export = try lifelog(["export", "--format", "jsonl"])
    return try export.stdout.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  /// Polish Excel's "CSV (separated by semicolons)": Windows-1250, CRLF.
  func polishSheet(note: String = "zupa pomidorowa") throws -> String {
    let text =
      "Data;Godzina;Posiłek;Co zjadłem;Kcal\r\n"
      + "6.12.2026;7:30;śniadanie;owsianka z jabłkiem;350,5\r\n"
      + "6.12.2026;12.15;obiad;\(note);\r\n"
      + "7.12.2026;7.30 am;śniadanie;=jajecznica;\r\n"
    let path = folder.file("dziennik.csv")
    try #require(
      FileManager.default.createFile(
        atPath: path, contents: text.data(using: .windowsCP1250)))
    return path
  }

  static let polishMap = [
    "--map", "at=Data+Godzina", "--map", "activity=Posiłek", "--map", "note=Co zjadłem",
    "--map", "quantity=E", "--kind", "meal",
  ]

  @Test func withoutAMapTheColumnsContentsGiveAReadyMapLineAndNothingIsWritten() throws {
    let path = try polishSheet()
    let result = try lifelog(["import", path])
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stderr.contains(
        "--map at=Data+Godzina --map activity=Posiłek --map note=\"Co zjadłem\" --map quantity=Kcal"
      ),
      "\(result.stderr)")
    #expect(try entries().isEmpty)
  }

  @Test func aPolishSheetImportsOnceAndAnEditedRowUpdatesItsEntry() throws {
    let path = try polishSheet()
    let dry = try lifelog(["import", path, "--dry-run"] + Self.polishMap)
    #expect(dry.exitCode == 0, "\(dry)")
    #expect(
      dry.stdout.contains("row 2: 2026-12-06T07:30:00+01:00  śniadanie  350.5  owsianka"),
      "\(dry.stdout)")
    #expect(try entries().isEmpty)
    let first = try lifelog(["import", path] + Self.polishMap)
    #expect(first.stdout.hasPrefix("Imported: 3 added"), "\(first)")
    let rows = try entries()
    #expect(rows.count == 3)
    let lunch = try #require(rows.first { $0["activity"] as? String == "obiad" })
    #expect(lunch["at"] as? String == "2026-12-06T12:15:00+01:00")
    #expect(rows.contains { $0["note"] as? String == "=jajecznica" })
    #expect(rows.contains { $0["quantity"] as? Double == 350.5 })
    let again = try lifelog(["import", path] + Self.polishMap)
    #expect(again.stdout.hasPrefix("Imported: 0 added, 0 updated, 3 unchanged"), "\(again)")
    _ = try polishSheet(note: "barszcz")
    let edited = try lifelog(["import", path] + Self.polishMap)
    #expect(edited.stdout.hasPrefix("Imported: 0 added, 1 updated, 2 unchanged"), "\(edited)")
    #expect(try entries().contains { $0["note"] as? String == "barszcz" })
  }

  @Test func utf16WithTabsAndOneActivityForEveryRow() throws {
    let text = "Kiedy\tIle\r\n2026-12-06 08:00\t2\r\n2026-12-07 08:05\t1,5\r\n"
    let path = folder.file("woda.txt")
    try #require(FileManager.default.createFile(atPath: path, contents: text.data(using: .utf16)))
    let result = try lifelog(
      [
        "import", path, "--map", "at=A", "--map", "quantity=Ile", "--activity", "water", "--kind",
        "other",
      ])
    #expect(result.stdout.hasPrefix("Imported: 2 added"), "\(result)")
    #expect(try entries().map { $0["quantity"] as? Double } == [2, 1.5])
  }

  @Test func ambiguousDatesAreDecidedByTheDataOrRefusedWithTheirRows() throws {
    let path = folder.file("us.csv")
    let either = "When,What\n3/4/2026 8:00,walk\n5/6/2026 9:00,walk\n"
    try either.write(toFile: path, atomically: true, encoding: .utf8)
    let map = ["--map", "at=When", "--map", "activity=What"]
    let refused = try lifelog(["import", path] + map)
    #expect(refused.exitCode == 65, "\(refused)")
    #expect(refused.stderr.contains("row 2 '3/4/2026 8:00'"), "\(refused.stderr)")
    #expect(refused.stderr.contains("--date-format"), "\(refused.stderr)")
    let told = try lifelog(["import", path, "--date-format", "m/d/yyyy"] + map)
    #expect(told.exitCode == 0, "\(told)")
    #expect(try entries().first?["at"] as? String == "2026-03-04T08:00:00+01:00")
    try (either + "4/13/2026 7:00,walk\n").write(toFile: path, atomically: true, encoding: .utf8)
    let decided = try lifelog(["import", path, "--dry-run"] + map)
    #expect(decided.stdout.contains("row 2: 2026-03-04T08:00:00+01:00"), "\(decided)")
  }

  /// A sheet of 5,000 columns, the first a header cell of 5,000 characters: an error names its
  /// first 20 columns (the long one cut short) and how many more there are, not all of them, and
  /// the proposed `--map` names the long one by its letter.
  @Test func anErrorNamesTheFirst20ColumnsOfAWideSheetAndCountsTheRest() throws {
    let path = folder.file("wide-header.csv")
    let header = [String(repeating: "x", count: 5_000)] + (1..<5_000).map { "c\($0)" }
    let row = ["6.12.2026 8:00"] + Array(repeating: "obiad", count: 4_999)
    try (header.joined(separator: ";") + "\n" + row.joined(separator: ";") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    let unmapped = try lifelog(["import", path])
    let missing = try lifelog(["import", path, "--map", "at=Kiedy", "--map", "activity=c1"])
    for (result, shown) in [
      (unmapped, "'c19', … and 4980 more)"), (missing, "T 'c19', … and 4980 more"),
    ] {
      #expect(result.exitCode == 65, "\(result.stderr.prefix(2000))")
      #expect(result.stderr.contains(shown), "\(result.stderr.prefix(2000))")
      #expect(result.stderr.contains("'" + String(repeating: "x", count: 60) + "…'"))
      #expect(!result.stderr.contains("'c20'"), "\(result.stderr.prefix(2000))")
      #expect(result.stderr.utf8.count < 2_000, "\(result.stderr.utf8.count) bytes")
    }
    #expect(unmapped.stderr.contains("--map at=A --map activity=c1"), "\(unmapped.stderr)")
    #expect(try entries().isEmpty)
  }

  @Test func invalidRowsAreListedByTheirSheetRowAndNothingIsImported() throws {
    let path = folder.file("bad.csv")
    try "Data;Posiłek\n6.12.2026 8:00;obiad\n\n31.2.2026 8:00;obiad\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let map = ["--map", "at=Data", "--map", "activity=Posiłek", "--kind", "meal"]
    let result = try lifelog(["import", path] + map)
    #expect(result.exitCode == 65, "\(result)")
    #expect(result.stderr.contains("line 4: Cannot read '31.2.2026 8:00'"), "\(result.stderr)")
    #expect(try entries().isEmpty)
    let skipped = try lifelog(["import", path, "--skip-invalid"] + map)
    #expect(skipped.stdout.hasPrefix("Imported: 1 added"), "\(skipped)")
  }

  @Test func lifelogsOwnCSVStillImportsAsBefore() throws {
    let result = try lifelog(
      ["import", "-", "--format", "csv"],
      input: "at,activity,note\n2026-12-06T08:00:00+01:00,breakfast,oats\n")
    #expect(result.stdout.hasPrefix("Imported: 1 added"), "\(result)")
    let unknown = try lifelog(["import", "-", "--format", "jsonl", "--map", "at=A"], input: "")
    #expect(unknown.exitCode != 0)
  }

  /// A record of more fields than a spreadsheet row has (16,384) is refused before it is held:
  /// each `;` would otherwise cost a cell (150 MB of them held 8 GB).
  @Test func aRecordWiderThanASpreadsheetRowIsRefused() throws {
    let path = folder.file("wide.csv")
    let text = "Kiedy;Co\n2026-12-06 07:30;owsianka" + String(repeating: ";", count: 20_000) + "\n"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try lifelog(
      [
        "import", path, "--map", "at=Kiedy", "--map", "note=Co", "--activity", "meal", "--kind",
        "meal",
      ])
    #expect(result.exitCode == 65, "\(result)")
    #expect(result.stderr.contains("line 2 has more than 16384 fields"), "\(result.stderr)")
    #expect(try entries().isEmpty)
  }
}
