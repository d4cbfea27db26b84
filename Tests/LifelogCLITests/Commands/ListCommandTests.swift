import LifelogTestSupport
import Testing

@Suite struct ListCommandTests {
  let fixture = CLIFixture()

  @Test func withoutARangeItShowsTheLastTwentyOldestFirst() {
    for minute in 0..<25 { fixture.run("add", "snack", "n\(minute)", "--at", "-\(25 - minute)m") }
    let lines = fixture.run("list").stdout.split(separator: "\n")
    #expect(lines.count == 21)
    #expect(lines[0].hasPrefix("ID  "))
    #expect(lines[1].hasSuffix("n5"))
    #expect(lines[20].hasSuffix("n24"))
    #expect(fixture.run("list", "--limit", "3").stdout.split(separator: "\n").count == 4)
  }

  @Test func theTableShowsIdDayTimeActivityDurationQuantityAndNote() {
    fixture.run("activity", "edit", "walk", "--unit", "km")
    fixture.run(
      "add", "walk", "--at", "mon 7:15pm", "--duration", "45m", "--qty", "4.2", "--tag", "dog",
      "park")
    let output = fixture.run("list").stdout
    #expect(output.hasPrefix("ID        WHEN                  ACTIVITY  DURATION     QTY  NOTE\n"))
    #expect(output.contains("  Mon 2026-11-30 19:15  walk           45m  4.2 km  park #dog\n"))
  }

  @Test func anEntryLoggedElsewhereShowsItsOwnOffset() {
    fixture.run("add", "breakfast", "--at", "2026-12-01T08:00:00-05:00")
    #expect(fixture.run("list").stdout.contains("Tue 2026-12-01 08:00 UTC-05:00  breakfast"))
    #expect(
      fixture.run("list", "--format", "json").stdout.contains(
        "\"at\":\"2026-12-01T08:00:00-05:00\""))
  }

  @Test func aBareDateMeansMidnightAndTheEndIsExclusive() {
    fixture.run("add", "snack", "a", "--at", "2026-11-30 23:59")
    fixture.run("add", "snack", "b", "--at", "2026-12-01 00:00")
    fixture.run("add", "snack", "c", "--at", "2026-12-01 23:59")
    fixture.run("add", "snack", "d", "--at", "2026-12-02 00:00")
    let csv = fixture.run("list", "--from", "2026-12-01", "--to", "2026-12-02", "--format", "csv")
      .stdout
    let notes = csv.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
      .map { $0.split(separator: ",", omittingEmptySubsequences: false)[5] }
    #expect(notes == ["b", "c"])
  }

  @Test func activityFilterAndDeletedListingSelectTheirEntries() throws {
    let apple = try fixture.addReturningID("snack", "apple")
    fixture.run("add", "lunch", "soup")
    #expect(fixture.run("list", "--activity", "SNACK", "--format", "csv").stdout.contains("apple"))
    #expect(!fixture.run("list", "--activity", "snack", "--format", "csv").stdout.contains("soup"))
    fixture.run("delete", String(apple.prefix(8)))
    #expect(!fixture.run("list").stdout.contains("apple"))
    #expect(fixture.run("list", "--deleted").stdout.contains("apple"))
    #expect(
      fixture.run("list", "--deleted", "--format", "json").stdout.contains("\"deleted\":true"))
  }

  @Test func csvQuotesFieldsAsRFC4180Says() {
    fixture.run("add", "snack", "nuts, \"raw\"\nand salted", "--tag", "a", "--tag", "b")
    let csv = fixture.run("list", "--format", "csv").stdout
    #expect(csv.hasPrefix("id,at,activity,kind,duration,note,quantity,unit,tags\r\n"))
    #expect(csv.contains(",snack,meal,,\"nuts, \"\"raw\"\"\nand salted\",,,a;b\r\n"))
  }

  @Test func jsonIsAnArrayOfObjectsWithTheDocumentedFields() {
    #expect(fixture.run("list", "--format", "json").stdout == "[]\n")
    fixture.run("add", "snack", "tab\there")
    let json = fixture.run("list", "--format", "json").stdout
    #expect(json.hasPrefix("[\n{\"id\":\""))
    #expect(json.hasSuffix("}\n]\n"))
    for key in [
      "id", "activity", "kind", "at", "duration", "note", "quantity", "unit", "tags", "source",
      "deleted",
    ] {
      #expect(json.contains("\"\(key)\":"))
    }
    #expect(json.contains("\"note\":\"tab\\there\""))
  }

  @Test func anEmptyLogSaysHowToStart() {
    #expect(fixture.run("list").stdout == "No entries; add one with 'lifelog add breakfast'.\n")
  }

  @Test(arguments: [
    (["list", "--limit", "0"], 65, "--limit must be a whole number"),
    (["list", "--limit", "many"], 65, "--limit must be a whole number"),
    (["list", "--from", "2026-12-02", "--to", "2026-12-01"], 65, "is not after --from"),
    (["list", "--from", "someday"], 65, "Cannot read time 'someday'"),
    (["list", "--activity", "lunchh"], 65, "did you mean 'lunch'?"),
    (["list", "--format", "yaml"], 64, "Unknown format 'yaml'"),
    (["list", "extra"], 64, "Cannot read day 'extra'"),
    (["list", "today", "tomorrow"], 64, "Unexpected argument 'tomorrow'"),
  ])
  func badListOptionsAreRefused(arguments: [String], code: Int32, fragment: String) {
    expectFailure(fixture, arguments, code: code, saying: fragment)
  }
}
