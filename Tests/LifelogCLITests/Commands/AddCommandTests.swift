import LifelogTestSupport
import Testing

@Suite struct AddCommandTests {
  let fixture = CLIFixture()

  @Test func addingPrintsTheShortIdAndTheLoggedTime() {
    let result = fixture.run("add", "breakfast", "oatmeal, coffee", "--at", "8am")
    #expect(result.exitCode == 0)
    #expect(result.stdout.hasPrefix("Added "))
    #expect(result.stdout.hasSuffix(" breakfast Wed 2026-12-02 08:00 \"oatmeal, coffee\"\n"))
    #expect(result.stderr.isEmpty)
  }

  @Test func wordsAfterTheActivityFormTheNote() throws {
    fixture.run("add", "snack", "an", "apple")
    #expect(fixture.run("list", "--format", "csv").stdout.contains(",an apple,"))
  }

  @Test func everyOptionIsStoredAndShownAsJSON() {
    let result = fixture.run(
      "add", "walk", "--at", "yesterday 18:00", "--duration", "1h30m", "--qty", "4.5", "--tag",
      "park",
      "--tag", "dog", "--format", "json")
    #expect(result.exitCode == 0, "\(result)")
    let json = result.stdout
    #expect(
      json.contains(
        "\"activity\":\"walk\",\"kind\":\"exercise\",\"at\":\"2026-12-01T18:00:00+01:00\""))
    #expect(
      json.contains(
        "\"duration\":5400,\"note\":null,\"quantity\":4.5,\"unit\":null,\"tags\":[\"park\",\"dog\"]"
      ))
  }

  @Test func anUnknownActivityIsRefusedWithTheNearestNames() {
    expectFailure(
      fixture, ["add", "brekfast", "eggs"], code: 65, saying: "did you mean 'breakfast'?")
    expectFailure(fixture, ["add", "zzzzzz"], code: 65, saying: "add --kind")
  }

  @Test func kindCreatesTheActivityAndLogsToIt() {
    let result = fixture.run("add", "Green Tea", "--kind", "meal", "sencha")
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout.hasPrefix("Created activity 'Green Tea' (meal)\nAdded "))
    #expect(fixture.run("add", "green tea").exitCode == 0)
    #expect(
      fixture.run("activity", "list", "--format", "csv").stdout.contains("Green Tea,meal,,,2,"))
  }

  @Test func kindThatContradictsAnExistingActivityIsRefused() {
    expectFailure(
      fixture, ["add", "walk", "--kind", "meal"], code: 65, saying: "already exists as exercise")
  }

  @Test func anArchivedActivityRefusesNewEntriesAndSaysHowToUnarchive() {
    fixture.run("activity", "archive", "run")
    expectFailure(fixture, ["add", "run"], code: 65, saying: "lifelog activity unarchive run")
  }

  @Test(arguments: [
    (["add", "snack", "--at", "2025-13-45 08:00"], "not a real date"),
    (["add", "snack", "--at", "yesterday"], "names a day, not a time"),
    (["add", "snack", "--at", "25:00"], "hours run from 00 to 23"),
    (["add", "snack", "--at", "soonish"], "Cannot read time 'soonish'"),
    (["add", "snack", "--at", "2026-03-29 02:30"], "does not exist in Europe/Warsaw"),
    (["add", "snack", "--at", "2026-10-25 02:30"], "happened twice"),
    (["add", "snack", "--duration", "-5m"], "cannot be negative"),
    (["add", "snack", "--duration", "90"], "has no unit"),
    (["add", "snack", "--qty", "lots"], "Cannot read quantity 'lots'"),
    (["add", "snack", "--qty", "-1"], "cannot be negative"),
    (["add", "snack", "--tag", "two words"], "one word per --tag"),
    (["add", "snack", "--kind", "food"], "Unknown kind 'food'"),
    (["add", "snack", String(repeating: "x", count: 10_001)], "the limit is 10000"),
  ])
  func badValuesAreDataErrorsAndWriteNothing(arguments: [String], fragment: String) {
    expectFailure(fixture, arguments, code: 65, saying: fragment)
  }

  @Test func aNoteOfExactlyTheLimitIsAccepted() {
    #expect(fixture.run("add", "snack", String(repeating: "x", count: 10_000)).exitCode == 0)
  }

  @Test(arguments: [
    (["add"], "Missing expected argument '<activity>'"),
    (["add", "snack", "--at"], "Missing value for '--at <time>'"),
    (["add", "snack", "--when", "8am"], "Unknown option '--when'"),
    (["add", "snack", "--durration", "5m"], "did you mean '--duration'?"),
    (["add", "snack", "--at", "8am", "--at", "9am"], "more than once"),
    (["add", "snack", "--format", "xml"], "Unknown format 'xml'"),
  ])
  func commandLinesThatDoNotFitAreUsageErrorsWithTheUsageLine(arguments: [String], fragment: String)
  {
    let result = fixture.cli.run(arguments)
    #expect(result.exitCode == 64, "\(result)")
    #expect(result.stderr.hasPrefix("Error: "), "\(result)")
    #expect(result.stderr.contains(fragment), "\(result)")
    #expect(
      result.stderr.contains("\nUsage: lifelog add <activity> [<note> ...] [<options>]\n"),
      "\(result)")
    #expect(
      result.stderr.hasSuffix("  See 'lifelog add --help' for more information.\n"), "\(result)")
  }

  @Test func aNoteMayStartWithADashAfterTheTerminator() {
    fixture.run("add", "snack", "--", "-half an apple")
    // CSV guards a leading '-' against formula injection (a ' in front, quoted).
    #expect(fixture.run("list", "--format", "csv").stdout.contains(",\"'-half an apple\","))
    #expect(fixture.run("show", "last", "--format", "json").stdout.contains("\"-half an apple\""))
  }

  @Test func relativeTimesCountBackFromNow() {
    fixture.run("add", "snack", "--at", "-2h")
    #expect(
      fixture.run("list", "--format", "csv").stdout.contains(",2026-12-02T10:00:00+01:00,snack,"))
  }
}
