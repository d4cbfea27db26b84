import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// An import never loses a record of its own file: records a source cannot tell apart by what
/// identifies them there still become one entry each, the summary counts what happened, and the
/// same file imported again adds nothing.
@Suite struct ForeignImportIdentityTests {
  let folder = TemporaryDirectory()

  func lifelog(_ arguments: [String], input: String? = nil) throws -> CommandResult {
    try LifelogProcess.run(
      arguments,
      environment: [
        "LIFELOG_DB": folder.file("log.db"), "TZ": "Europe/Warsaw",
        "LIFELOG_NOW": "2026-12-02T12:00:00+01:00",
      ], input: input)
  }

  /// The entries of the log, as `export --format jsonl` writes them.
  func entries() throws -> [[String: Any]] {
    let export = try lifelog(["export", "--format", "jsonl"])
    return try export.stdout.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  /// Imports `input` twice from standard input: the first adds `count` entries, the second none.
  func expectImportedOnce(
    _ source: String, _ input: String, count: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let first = try lifelog(["import", "--from", source, "--kind", "other", "-"], input: input)
    #expect(
      first.stdout.hasPrefix("Imported: \(count) added, 0 updated, 0 unchanged"), "\(first)",
      sourceLocation: sourceLocation)
    let again = try lifelog(["import", "--from", source, "--kind", "other", "-"], input: input)
    #expect(
      again.stdout.hasPrefix("Imported: 0 added, 0 updated, \(count) unchanged"), "\(again)",
      sourceLocation: sourceLocation)
    #expect(try entries().count == count, sourceLocation: sourceLocation)
  }

  @Test func twoJrnlEntriesWithOneDateTimeAndTitleAreTwoEntries() throws {
    let export = """
      {"tags": {}, "entries": [
      {"date": "2026-12-01", "time": "07:30", "title": "Ran.", "body": "5 km by the river.", "tags": []},
      {"date": "2026-12-01", "time": "07:30", "title": "Ran.", "body": "Then 2 km back.", "tags": []}
      ]}
      """
    try expectImportedOnce("jrnl", export, count: 2)
    let notes = try entries().compactMap { $0["note"] as? String }.sorted()
    #expect(notes == ["Ran.\n5 km by the river.", "Ran.\nThen 2 km back."])
    // The first of equals keeps the id earlier versions gave it (a SHA-256 of the source, date,
    // time and title), so a log that imported this file before still matches it.
    let ids = try entries().compactMap { $0["id"] as? String }
    #expect(ids.contains("48eefd99-f45e-8059-941a-b5bce82fd889"), "\(ids)")
  }

  @Test func aLaterCronometerRunOfTheSameMealIsAnEntryOfItsOwn() throws {
    let servings = """
      Day,Time,Group,Food Name,Amount,Energy (kcal)
      2026-11-30,08:10,Breakfast,Oats,50.00 g,189.5
      2026-11-30,08:10,Breakfast,Milk,250.00 ml,122.0
      2026-11-30,12:30,Lunch,Soup,1.00 bowl,310.2
      2026-11-30,08:10,Breakfast,Coffee,1.00 cup,2.0

      """
    try expectImportedOnce("cronometer", servings, count: 3)
    let notes = try entries().compactMap { $0["note"] as? String }.sorted()
    #expect(notes == ["Coffee (1.00 cup)", "Oats (50.00 g); Milk (250.00 ml)", "Soup (1.00 bowl)"])
  }

  @Test func twoAppleHealthWorkoutsStartingTogetherAreBothKept() throws {
    let export = """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_PL">
       <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="Apple Watch" \
      totalDistance="5.2" totalDistanceUnit="km" startDate="2026-11-30 17:00:00 +0100" \
      endDate="2026-11-30 17:32:30 +0100"/>
       <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="Strava" \
      totalDistance="5.3" totalDistanceUnit="km" startDate="2026-11-30 17:00:00 +0100" \
      endDate="2026-11-30 17:33:00 +0100"/>
      </HealthData>

      """
    try expectImportedOnce("apple-health", export, count: 2)
    let distances = try entries().compactMap { $0["quantity"] as? Double }.sorted()
    #expect(distances == [5.2, 5.3])
  }

  @Test func twoEqualCSVRowsWithoutIdsAreTwoEntries() throws {
    let csv = """
      at,activity,note
      2026-12-01T08:00:00+01:00,coffee,espresso
      2026-12-01T08:00:00+01:00,coffee,espresso

      """
    let first = try lifelog(["import", "--kind", "meal", "-"], input: csv)
    #expect(first.stdout.hasPrefix("Imported: 2 added, 0 updated, 0 unchanged"), "\(first)")
    let again = try lifelog(["import", "--kind", "meal", "-"], input: csv)
    #expect(again.stdout.hasPrefix("Imported: 0 added, 0 updated, 2 unchanged"), "\(again)")
    #expect(try entries().count == 2)
  }

  @Test func aCSVRowRepeatingAnEarlierRowsIdIsRefused() throws {
    let id = "1a2b3c4d-0000-4000-8000-000000000001"
    let csv = """
      id,at,activity,note
      \(id),2026-12-01T08:00:00+01:00,coffee,espresso
      \(id),2026-12-01T09:00:00+01:00,coffee,latte

      """
    let result = try lifelog(["import", "--kind", "meal", "-"], input: csv)
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stderr.contains("line 3: id '\(id)' is on an earlier row of the file"), "\(result)")
    #expect(try entries().isEmpty)
  }
}
