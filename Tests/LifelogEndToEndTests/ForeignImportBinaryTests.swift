import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog import --from`: real exports made by the real tools (timewarrior from Debian; Watson
/// and jrnl from PyPI, installed into .build/venv by scripts/import-tools.sh), and fixtures
/// written from the format's documentation for Cronometer and Apple Health (Fixtures/).
@Suite struct ForeignImportBinaryTests {
  let folder = TemporaryDirectory()
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
  static let venv = root + "/.build/venv/bin/"
  static let fixtures = root + "/Tests/LifelogEndToEndTests/Fixtures/"

  var environment: [String: String] {
    [
      "LIFELOG_DB": folder.file("log.db"), "TZ": "Europe/Warsaw",
      "LIFELOG_NOW": "2026-12-02T12:00:00+01:00",
    ]
  }

  func lifelog(_ arguments: [String], input: String? = nil) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment, input: input)
  }

  /// The entries of the log, as `export --format jsonl` writes them.
  func entries() throws -> [[String: Any]] {
    let export = try lifelog(["export", "--format", "jsonl"])
    return try export.stdout.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  /// Runs a tool of the test, failing the test (not skipping it) when it is missing.
  func tool(_ path: String, _ arguments: [String], _ variables: [String: String]) throws -> String {
    #expect(
      FileManager.default.isExecutableFile(atPath: path),
      "\(path) is missing; run scripts/import-tools.sh (make test does)")
    var all = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "TZ": "Europe/Warsaw"]
    all.merge(variables) { $1 }
    let output = try Subprocess.run(path, arguments, environment: all)
    #expect(output.status == 0, "\(path) \(arguments): \(output.stderr)")
    return output.stdout
  }

  @Test func aRealTimewarriorExportImportsItsClosedIntervalsOnceAndSkipsTheOpenOne() throws {
    let database = ["TIMEWARRIORDB": folder.file("timewarrior")]
    try FileManager.default.createDirectory(
      atPath: folder.file("timewarrior"), withIntermediateDirectories: true)
    _ = try tool(
      "/usr/bin/timew",
      [
        ":yes", "track", "2026-11-30T09:00", "-", "2026-11-30T10:30",
        "code", "lifelog", "deep work",
      ], database)
    _ = try tool("/usr/bin/timew", [":yes", "annotate", "@1", "fixed the import"], database)
    _ = try tool(
      "/usr/bin/timew",
      [
        ":yes", "track", "2026-11-30T14:00", "-", "2026-11-30T14:20",
        "reading",
      ], database)
    _ = try tool("/usr/bin/timew", [":yes", "start", "2026-12-01T08:00", "reading"], database)
    let export = try tool("/usr/bin/timew", ["export"], database)
    let first = try lifelog(
      ["import", "--from", "timewarrior", "--kind", "other", "-"], input: export)
    #expect(first.exitCode == 0, "\(first)")
    #expect(first.stdout.hasPrefix("Imported: 2 added"), "\(first.stdout)")
    #expect(first.stderr.contains("is still open; skipped"), "\(first.stderr)")
    let rows = try entries()
    #expect(rows.count == 2)
    let code = try #require(rows.first { $0["activity"] as? String == "code" })
    #expect(code["at"] as? String == "2026-11-30T09:00:00+01:00")  // timew read it in Warsaw
    #expect(code["duration"] as? Int == 5400)
    #expect(code["tags"] as? [String] == ["deep-work", "lifelog"])
    #expect(code["note"] as? String == "fixed the import")
    let reading = try #require(rows.first { $0["activity"] as? String == "reading" })
    #expect(reading["duration"] as? Int == 1200)
    let again = try lifelog(
      ["import", "--from", "timewarrior", "--kind", "other", "-"], input: export)
    #expect(again.stdout.hasPrefix("Imported: 0 added, 0 updated, 2 unchanged"), "\(again)")
    // A newer export: the open interval closed; only it is added.
    _ = try tool("/usr/bin/timew", [":yes", "stop", "2026-12-01T08:45"], database)
    let newer = try lifelog(
      ["import", "--from", "timewarrior", "--kind", "other", "-"],
      input: try tool("/usr/bin/timew", ["export"], database))
    #expect(newer.stdout.hasPrefix("Imported: 1 added, 0 updated, 2 unchanged"), "\(newer)")
  }

  @Test func theFirstTagThatNamesAnExistingActivityBecomesTheActivity() throws {
    #expect(try lifelog(["activity", "add", "lifelog", "--kind", "other"]).exitCode == 0)
    let export =
      #"[{"id":1,"start":"20261130T090000Z","end":"20261130T100000Z","tags":["code","lifelog"]}]"#
    let result = try lifelog(
      ["import", "--from", "timewarrior", "--kind", "other", "-"], input: export)
    #expect(result.exitCode == 0, "\(result)")
    let row = try #require(try entries().first)
    #expect(row["activity"] as? String == "lifelog")
    #expect(row["tags"] as? [String] == ["code"])
  }

  @Test func realWatsonFramesAndItsJSONLogImportAsTheSameEntries() throws {
    let variables = ["WATSON_DIR": folder.file("watson")]
    let watson = Self.venv + "watson"
    _ = try tool(
      watson,
      [
        "add", "-f", "2026-11-30 09:00", "-t", "2026-11-30 10:15", "writing",
        "+book", "+deep work",
      ], variables)
    _ = try tool(
      watson, ["add", "-f", "2026-11-30 14:00", "-t", "2026-11-30 14:30", "running"],
      variables)
    let first = try lifelog([
      "import", "--from", "watson", "--kind", "other", folder.file("watson/frames"),
    ])
    #expect(first.stdout.hasPrefix("Imported: 2 added"), "\(first)")
    let rows = try entries()
    let writing = try #require(rows.first { $0["activity"] as? String == "writing" })
    #expect(writing["at"] as? String == "2026-11-30T09:00:00+01:00")
    #expect(writing["duration"] as? Int == 4500)
    #expect(writing["tags"] as? [String] == ["book", "deep-work"])
    let log = try tool(
      watson, ["log", "--json", "--from", "2026-11-01", "--to", "2026-12-31"], variables)
    let again = try lifelog(["import", "--from", "watson", "--kind", "other", "-"], input: log)
    #expect(again.stdout.hasPrefix("Imported: 0 added, 0 updated, 2 unchanged"), "\(again)")
  }

  @Test func aRealJrnlExportBecomesNoteEntriesOfTheJournalActivity() throws {
    let config = folder.file("jrnl.yaml")
    try """
    colors: {body: none, date: none, tags: none, title: none}
    default_hour: 9
    default_minute: 0
    editor: ""
    encrypt: false
    highlight: false
    indent_character: "|"
    journals: {default: {journal: \(folder.file("journal.txt"))}}
    linewrap: 79
    tagsymbols: "#@"
    template: false
    timeformat: "%F %r"
    version: v4.2.1
    """.write(toFile: config, atomically: true, encoding: .utf8)
    let jrnl = Self.venv + "jrnl"
    _ = try tool(
      jrnl,
      [
        "--config-file", config,
        "2026-11-30 21:10: A quiet day. Walked @dog by the river.\nThe second line.",
      ], [:])
    _ = try tool(jrnl, ["--config-file", config, "2026-12-01 07:05: Early start @work."], [:])
    let export = try tool(jrnl, ["--config-file", config, "--export", "json"], [:])
    let first = try lifelog(["import", "--from", "jrnl", "--kind", "other", "-"], input: export)
    #expect(first.stdout.hasPrefix("Imported: 2 added"), "\(first)")
    #expect(first.stdout.contains("journal (other)"))
    let rows = try entries()
    #expect(rows.count == 2)
    #expect(rows[0]["at"] as? String == "2026-11-30T21:10:00+01:00")
    #expect(
      rows[0]["note"] as? String == "A quiet day. Walked @dog by the river.\nThe second line.")
    #expect(rows[0]["tags"] as? [String] == ["dog"])
    #expect(rows[1]["activity"] as? String == "journal")
    let again = try lifelog(["import", "--from", "jrnl", "--kind", "other", "-"], input: export)
    #expect(again.stdout.hasPrefix("Imported: 0 added, 0 updated, 2 unchanged"), "\(again)")
  }

  @Test func cronometerServingsBecomeOneMealPerDayTimeAndGroup() throws {
    let path = Self.fixtures + "cronometer-servings.csv"
    #expect(try lifelog(["activity", "edit", "breakfast", "--unit", "kcal"]).exitCode == 0)
    let first = try lifelog(["import", "--from", "cronometer", path])
    #expect(first.stdout.hasPrefix("Imported: 3 added"), "\(first)")
    let rows = try entries()
    #expect(rows.count == 3)
    #expect(rows[0]["activity"] as? String == "breakfast")
    #expect(rows[0]["at"] as? String == "2026-11-30T08:10:00+01:00")
    #expect(rows[0]["note"] as? String == "Oats, rolled (50.00 g); Milk 2% (250.00 ml)")
    #expect(rows[0]["quantity"] as? Double == 311.5)
    #expect(rows[1]["activity"] as? String == "lunch")
    #expect(rows[1]["at"] as? String == "2026-11-30T12:30:00+01:00")  // no time: the group's hour
    #expect(rows[1]["quantity"] is NSNull, "lunch is not counted in kcal")
    #expect(rows[2]["activity"] as? String == "snack")
    #expect(rows[2]["kind"] as? String == "meal")
    let again = try lifelog(["import", "--from", "cronometer", path])
    #expect(again.stdout.hasPrefix("Imported: 0 added, 0 updated, 3 unchanged"), "\(again)")
  }

  @Test func appleHealthWorkoutsNightsAndMealsImportFromTheXMLAndFromTheZip() throws {
    let path = Self.fixtures + "apple-health-export.xml"
    let first = try lifelog(["import", "--from", "apple-health", path])
    #expect(first.stdout.hasPrefix("Imported: 6 added"), "\(first)")
    let rows = try entries()
    let sleep = rows.filter { $0["activity"] as? String == "sleep" }
    #expect(sleep.count == 2)
    #expect(sleep.first?["at"] as? String == "2026-11-29T23:00:00+01:00")
    #expect(sleep.first?["duration"] as? Int == 25800)  // 7 h 10 min asleep; awake, in bed left out
    let running = try #require(rows.first { $0["activity"] as? String == "running" })
    #expect(running["duration"] as? Int == 1950)
    #expect(running["quantity"] as? Double == 5.2)
    #expect(running["kind"] as? String == "exercise")
    let cycling = try #require(rows.first { $0["activity"] as? String == "cycling" })
    #expect(cycling["quantity"] as? Double == 19.956)  // 12.4 mi
    #expect(rows.contains { $0["activity"] as? String == "traditional strength training" })
    let meal = try #require(rows.first { $0["activity"] as? String == "meal" })
    #expect(meal["note"] as? String == "Porridge & berries")
    #expect(meal["quantity"] as? Double == 412.5)
    let zip = folder.file("export.zip")
    let zipped = try Subprocess.run(
      "/usr/bin/python3",
      [
        "-c",
        """
        import sys, zipfile
        with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as z:
            z.write(sys.argv[1], 'apple_health_export/export.xml')
        """, path, zip,
      ], environment: ["PATH": "/usr/bin:/bin"])
    #expect(zipped.status == 0, "\(zipped.stderr)")
    let again = try lifelog(["import", "--from", "apple-health", zip])
    #expect(again.stdout.hasPrefix("Imported: 0 added, 0 updated, 6 unchanged"), "\(again)")
  }

  @Test(arguments: [
    (
      "timewarrior", "[{\"start\":\"20261130T090000Z\",\"end\":\"2026-11-30\",\"tags\":[\"a\"]}]",
      "line 1: 'end' is '2026-11-30'"
    ),
    (
      "timewarrior",
      "[\n{\"start\":\"20261130T090000Z\",\"end\":\"20261130T100000Z\",\"tags\":[\"a\"]},\n"
        + "{\"start\": tru}\n]", "line 3: malformed JSON"
    ),
    ("timewarrior", "[{\"start\":\"20261130T090000Z\"", "line 1: the file ends inside"),
    ("watson", "[[1, 2, \"p\"]]", "line 1: the frame is not"),
    (
      "jrnl", "{\"tags\": {}, \"entries\": [{\"date\": \"2026-11-31\", \"time\": \"10:00\"}]}",
      "line 1: '2026-11-31' is not a real date"
    ),
    ("jrnl", "[]", "line 1: the file is not a JSON object"),
    (
      "cronometer", "Day,Group,Food Name,Energy (kcal)\n2026-11-30,Lunch,Soup,lots\n",
      "line 2: Energy (kcal) is 'lots'"
    ),
    ("cronometer", "Date,Meal\n", "no 'day' column"),
    (
      "apple-health",
      "<HealthData>\n<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" "
        + "startDate=\"yesterday\" endDate=\"2026-11-30 17:00:00 +0100\"/>\n</HealthData>\n",
      "line 2: startDate is 'yesterday'"
    ),
    (
      "apple-health", "<HealthData>\n<Record type=\"x\">\n</HealthData>\n",
      "Opening and ending tag mismatch: Record line 2"
    ),
  ])
  func malformedInputIsRefusedWithItsLineAndNothingIsWritten(
    source: String, input: String, message: String
  ) throws {
    let result = try lifelog(["import", "--from", source, "-"], input: input)
    #expect(result.exitCode == 65, "\(result)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(try entries().isEmpty)
  }

  @Test func aDamagedZipIsRefusedAndAZipCannotComeFromStandardInput() throws {
    let zip = folder.file("export.zip")
    try Data("PK\u{3}\u{4}not really a zip".utf8).write(to: URL(fileURLWithPath: zip))
    let damaged = try lifelog(["import", "--from", "apple-health", zip])
    #expect(damaged.exitCode == 65, "\(damaged)")
    #expect(damaged.stderr.contains("is not a zip file"), "\(damaged.stderr)")
    let piped = try lifelog(["import", "--from", "apple-health", "-"], input: "PK\u{3}\u{4}")
    #expect(piped.exitCode == 65, "\(piped)")
    #expect(piped.stderr.contains("cannot be read from standard input"), "\(piped.stderr)")
    #expect(try entries().isEmpty)
  }

  @Test func aDryRunWritesNothingAndActivityPutsEveryEntryUnderIt() throws {
    let export = #"[{"start":"20261130T090000Z","end":"20261130T100000Z","tags":["code"]}]"#
    let dry = try lifelog(
      ["import", "--from", "timewarrior", "--kind", "other", "--dry-run", "-"], input: export)
    #expect(dry.stdout.hasPrefix("Dry run, nothing written: would add 1"), "\(dry)")
    #expect(try entries().isEmpty)
    let chosen = try lifelog(
      ["import", "--from", "timewarrior", "--activity", "work", "--kind", "other", "-"],
      input: export)
    #expect(chosen.exitCode == 0, "\(chosen)")
    #expect(try entries().first?["activity"] as? String == "work")
    #expect(try entries().first?["tags"] as? [String] == ["code"])
    let refused = try lifelog(["import", "--from", "apple-health", "--activity", "x", "-"])
    #expect(refused.exitCode == 64)
  }
}
