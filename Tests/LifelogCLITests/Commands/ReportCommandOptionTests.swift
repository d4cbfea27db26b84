import Foundation
import LifelogCLI
import LifelogCLITestSupport
import LifelogCore
import LifelogTestSupport
import Testing

@Suite struct ReportCommandOptionTests {
  let fixture: ReportFixture

  init() throws { fixture = try ReportFixture() }

  @Test func theDefaultRangeIsTheSevenDaysEndingToday() {
    let json = fixture.output("report", "meals", "--format", "json")
    #expect(json.hasPrefix("{\"from\":\"2026-10-21\",\"to\":\"2026-10-27\","))
  }

  @Test func atOneThirtyTodayIsStillTheDayBefore() {
    var cli = fixture.cli
    cli.now = InProcessCLI.instant("2026-10-28T01:30:00+01:00")
    #expect(
      cli.run(["report", "meals", "--format", "json"]).stdout.hasPrefix(
        "{\"from\":\"2026-10-21\",\"to\":\"2026-10-27\","))
    cli.now = InProcessCLI.instant("2026-10-28T04:00:00+01:00")
    #expect(
      cli.run(["report", "meals", "--format", "json"]).stdout.hasPrefix(
        "{\"from\":\"2026-10-22\",\"to\":\"2026-10-28\","))
  }

  @Test func fromAloneRunsToTodayAndToAloneCoversTheSevenDaysBefore() {
    #expect(
      fixture.output("report", "activity", "--from", "mon", "--format", "json").hasPrefix(
        "{\"from\":\"2026-10-26\",\"to\":\"2026-10-27\","))
    #expect(
      fixture.output("report", "--to", "2026-10-20", "--format", "json").hasPrefix(
        "{\"from\":\"2026-10-14\",\"to\":\"2026-10-20\","))
    #expect(
      fixture.output("report", "meals", "--from", "2026-10-25", "--to", "2026-10-25").contains(
        "(1 day), Ada"))
  }

  @Test func dayStartsAtMovesTheLateSnackToTheNextDay() {
    fixture.cli.run(["settings", "set", "dayStartsAt", "00:00"])
    let text = fixture.output("report", "meals", "--from", "2026-10-20", "--to", "2026-10-21")
    #expect(text.contains("Tue 2026-10-20: 4 meals, 08:00 to 19:30"))
    #expect(text.contains("Wed 2026-10-21: 1 meal, 01:30 to 01:30\n  overnight gap 6h\n"))
  }

  @Test func mealGapHoursChangesWhatIsFlagged() {
    fixture.cli.run(["settings", "set", "mealGapHours", "2.5"])
    let text = fixture.output("report", "meals", "--from", "2026-10-19", "--to", "2026-10-19")
    #expect(text.contains("gaps under 2h (<) or over 2h30m (!) are flagged"))
    #expect(
      text.contains("Mon 2026-10-19: 5 meals, 07:30 to 19:00, longest gap 3h, 3 gaps over 2h30m"))
    #expect(text.contains("  13:00  lunch         3h !  lentil soup\n"))
  }

  @Test func anEmptyLogStillListsEveryDay() throws {
    let folder = TemporaryDirectory()
    let cli = InProcessCLI(
      databasePath: folder.file("empty.db"), now: ReportSampleLog.now, zone: ReportSampleLog.zone)
    let result = cli.run(["report"])
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout.contains("Wed 2026-10-21               0  no meals\n"))
    #expect(result.stdout.contains("Tue 2026-10-27 (so far)      0  no meals\n"))
    #expect(
      result.stdout.contains(
        "0 meals per day; 0 of 6 days on rhythm (today not counted: not over yet)."))
    #expect(result.stdout.contains("Activities (totals over the range)\n"))
    let meals = cli.run(["report", "meals"]).stdout
    #expect(meals.components(separatedBy: ": no meals\n").count == 8)
  }

  // MARK: - Output files

  @Test func outputWritesTheSameReportToAFileAndSaysSo() throws {
    let path = fixture.folder.file("report.md")
    let result = fixture.cli.run(["report", "meals", "--format", "md", "--output", path])
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout == "Wrote the meals report for 2026-10-21 to 2026-10-27 to '\(path)'\n")
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written == fixture.output("report", "meals", "--format", "md"))
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)
    #expect(leftovers.filter { $0.hasSuffix(".tmp") }.isEmpty)
  }

  @Test func replacingAFileKeepsItsPermissions() throws {
    let path = fixture.folder.file("shared.txt")
    try "old".write(toFile: path, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    #expect(fixture.cli.run(["report", "--output", path]).exitCode == 0)
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("Report, Wed 2026-10-21"))
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o644)
  }

  @Test func aMissingFolderIsRefusedBeforeAnythingIsRead() {
    let path = fixture.folder.file("no/such/folder/report.txt")
    let result = fixture.cli.run(["report", "--output", path])
    #expect(result.exitCode == 65)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "Error: Cannot write '\(path)': the folder '\(fixture.folder.file("no/such/folder"))' "
        + "does not exist; create it first or choose another path\n")
    #expect(!FileManager.default.fileExists(atPath: fixture.folder.file("no")))
  }

  @Test func aFolderIsNotAnOutputFile() {
    let result = fixture.cli.run(["report", "--output", fixture.folder.path])
    #expect(result.exitCode == 65)
    #expect(result.stderr.contains("it is a folder; give a file name inside it"))
  }

  // MARK: - Colour

  @Test func colourOnlyOnATerminalAndNeverWithNoColor() {
    let terminal = run(["report", "meals"], terminal: true, environment: [:])
    #expect(terminal.contains("\u{1B}[1mMeals, Wed 2026-10-21"))
    #expect(terminal.contains("\u{1B}[1;31m  10h !\u{1B}[0m  sandwich\n"))
    #expect(
      !run(["report", "meals"], terminal: true, environment: ["NO_COLOR": "1"]).contains("\u{1B}["))
    #expect(!run(["report", "activity"], terminal: false, environment: [:]).contains("\u{1B}["))
    let path = fixture.folder.file("plain.txt")
    _ = run(["report", "--output", path], terminal: true, environment: [:])
    #expect(
      !((try? String(contentsOfFile: path, encoding: .utf8)) ?? "\u{1B}[").contains("\u{1B}["))
  }

  /// Runs a command with a context whose output is (or is not) a terminal.
  private func run(_ arguments: [String], terminal: Bool, environment: [String: String]) -> String {
    let output = CapturedOutput()
    var environment = environment
    environment["LIFELOG_DB"] = fixture.cli.databasePath
    let context = Context(
      environment: environment, output: output, errors: CapturedOutput(),
      outputIsTerminal: terminal,
      now: fixture.cli.now, zone: SystemTimeZone(identifier: ReportSampleLog.zone),
      zoneName: ReportSampleLog.zone)
    #expect(LifelogCommand.run(arguments, in: context) == 0)
    return output.text
  }

  // MARK: - Refusals

  @Test(arguments: [
    (
      ["report", "meals", "--format", "yaml"], 64,
      "Unknown format 'yaml'; use one of: text, md, csv, json, html"
    ),
    (
      ["report", "activity", "--by", "year"], 64,
      "Unknown period 'year' for --by; use day, week or month"
    ),
    (["report", "meals", "--by", "day"], 64, "Unknown option '--by'"),
    (
      ["report", "--from", "2026-10-27", "--to", "2026-10-20"], 65,
      "--to (2026-10-20) is before --from (2026-10-27)"
    ),
    (["report", "--from", "2026-10-32"], 65, "is not a real date"),
    (["report", "--from", "next week"], 65, "Cannot read day 'next week'"),
    (["report", "--from", "2026-11-02"], 65, "--from (2026-11-02) is after today (2026-10-27)"),
    (
      ["report", "--from", "1899-12-31", "--to", "2026-01-01"], 65,
      "The range 1899-12-31 to 2026-01-01 reaches outside 1900-01-01 to 9999-12-31"
    ),
    (["report", "weekly"], 64, "Unexpected argument 'weekly'"),
  ])
  func badReportCommandsAreRefused(arguments: [String], code: Int32, fragment: String) {
    let result = fixture.cli.run(arguments)
    #expect(result.exitCode == code, "\(result)")
    #expect(result.stderr.hasPrefix("Error: "), "\(result)")
    #expect(result.stderr.contains(fragment), "\(result)")
    #expect(result.stdout.isEmpty, "\(result)")
  }
}
