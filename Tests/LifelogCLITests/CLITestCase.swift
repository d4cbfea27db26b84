import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// A fresh log in a temporary folder, driven through the in-process CLI.
struct CLIFixture {
  let folder = TemporaryDirectory()
  let cli: InProcessCLI

  init(now: String = "2026-12-02T12:00:00+01:00", zone: String = "Europe/Warsaw") {
    cli = InProcessCLI(databasePath: folder.file("lifelog.db"), now: now, zone: zone)
  }

  @discardableResult
  func run(_ arguments: String...) -> CommandResult { cli.run(arguments) }

  /// Everything a command could have written: entries (live and deleted), activities, settings.
  func state() -> String {
    [
      cli.run(["list", "--format", "json", "--from", "1970-01-01"]).stdout,
      cli.run(["list", "--format", "json", "--from", "1970-01-01", "--deleted"]).stdout,
      cli.run(["activity", "list", "--format", "json"]).stdout,
      cli.run(["settings", "--format", "json"]).stdout,
    ].joined(separator: "\n")
  }

  /// The full id of the entry an `add --format json` printed.
  func addReturningID(_ arguments: String...) throws -> String {
    let result = cli.run(["add"] + arguments + ["--format", "json"])
    try #require(result.exitCode == 0, "\(result)")
    let start = try #require(result.stdout.range(of: "\"id\":\""))
    return String(result.stdout[start.upperBound...].prefix(36))
  }
}

/// Checks that a command failed with `code`, said `fragment` on stderr, printed nothing on stdout,
/// and (when `fixture` is given) changed nothing in the log.
func expectFailure(
  _ fixture: CLIFixture, _ arguments: [String], code: Int32, saying fragment: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let before = fixture.state()
  let result = fixture.cli.run(arguments)
  #expect(result.exitCode == code, "\(result)", sourceLocation: sourceLocation)
  #expect(result.stderr.hasPrefix("Error: "), "\(result)", sourceLocation: sourceLocation)
  #expect(result.stderr.contains(fragment), "\(result)", sourceLocation: sourceLocation)
  #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
  #expect(
    fixture.state() == before, "the failed command changed the log", sourceLocation: sourceLocation)
}
