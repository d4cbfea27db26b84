import LifelogCLITestSupport
import LifelogCore
import LifelogTestSupport
import Testing

/// The sample report log (``ReportSampleLog``) driven through the in-process CLI, Tuesday
/// 2026-10-27 21:00 in Warsaw.
struct ReportFixture {
  let folder = TemporaryDirectory()
  let cli: InProcessCLI

  init(environment: [String: String] = [:]) throws {
    let path = folder.file("lifelog.db")
    try ReportSampleLog.build(at: path)
    cli = InProcessCLI(
      databasePath: path, now: ReportSampleLog.now, zone: ReportSampleLog.zone,
      environment: environment)
  }

  /// Runs a command and requires it to succeed.
  func output(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let result = cli.run(arguments)
    #expect(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
    return result.stdout
  }
}

/// Golden files for every format (Snapshots/Reports/; re-record with RECORD_SNAPSHOTS=1).
@Suite struct ReportSnapshotTests {
  let fixture: ReportFixture
  let october = ["--from", "2026-10-19", "--to", "2026-10-27"]

  init() throws { fixture = try ReportFixture() }

  @Test(arguments: ["text", "md", "csv", "json", "html"])
  func mealReport(format: String) {
    let output = fixture.cli.run(["report", "meals"] + october + ["--format", format])
    #expect(output.exitCode == 0, "\(output)")
    assertSnapshot(output.stdout, named: "Reports/meals.\(format == "text" ? "txt" : format)")
  }

  @Test(arguments: ["text", "md", "csv", "json", "html"])
  func activityReport(format: String) {
    let output = fixture.cli.run(["report", "activity"] + october + ["--format", format])
    #expect(output.exitCode == 0, "\(output)")
    assertSnapshot(output.stdout, named: "Reports/activity.\(format == "text" ? "txt" : format)")
  }

  @Test(arguments: ["text", "md", "csv", "json", "html"])
  func bothReportsForTheLastSevenDays(format: String) {
    let output = fixture.cli.run(["report", "--format", format])
    #expect(output.exitCode == 0, "\(output)")
    assertSnapshot(output.stdout, named: "Reports/report.\(format == "text" ? "txt" : format)")
  }

  @Test func activityByDay() {
    assertSnapshot(
      fixture.output(
        "report", "activity", "--by", "day", "--from", "2026-10-24", "--to", "2026-10-26"),
      named: "Reports/activity-by-day.txt")
  }

  @Test func activityByMonth() {
    assertSnapshot(
      fixture.output("report", "activity", "--by", "month") + "",
      named: "Reports/activity-by-month.txt")
  }

  @Test func springForward() {
    assertSnapshot(
      fixture.output("report", "meals", "--from", "2026-03-28", "--to", "2026-03-29"),
      named: "Reports/meals-spring-forward.txt")
  }
}
