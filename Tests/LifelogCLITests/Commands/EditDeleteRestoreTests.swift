import LifelogCore
import LifelogTestSupport
import Testing

@Suite struct EditDeleteRestoreTests {
  let fixture = CLIFixture()

  @Test func editChangesOnlyTheNamedFields() throws {
    let id = try fixture.addReturningID(
      "snack", "apple", "--at", "10:00", "--duration", "5m", "--tag", "fruit")
    let result = fixture.run(
      "edit", String(id.prefix(6)), "--note", "pear", "--activity", "Lunch", "--format", "json")
    #expect(result.exitCode == 0, "\(result)")
    #expect(
      result.stdout.contains(
        "\"activity\":\"lunch\",\"kind\":\"meal\",\"at\":\"2026-12-02T10:00:00+01:00\",\"duration\":300,\"note\":\"pear\""
      ))
    #expect(result.stdout.contains("\"tags\":[\"fruit\"]"))
  }

  @Test func noneAndAnEmptyNoteClearFields() throws {
    let id = try fixture.addReturningID("walk", "park", "--duration", "5m", "--qty", "2")
    let result = fixture.run(
      "edit", id, "--duration", "none", "--qty", "none", "--note", "", "--format", "json")
    #expect(
      result.stdout.contains("\"duration\":null,\"note\":null,\"quantity\":null"), "\(result)")
  }

  @Test func editingWithNothingToChangeIsAUsageError() throws {
    let id = try fixture.addReturningID("snack")
    let result = fixture.run("edit", id)
    #expect(result.exitCode == 64)
    #expect(result.stderr.contains("Nothing to change"))
  }

  @Test func anAmbiguousPrefixListsTheCandidatesAndChangesNothing() throws {
    let store = try LogStore(path: fixture.folder.file("lifelog.db"))
    let snack = ActivityName.derivedID(for: "snack")
    let time = LoggedTime(instant: 1_764_662_400, offsetMinutes: 60)
    try store.add(
      NewEntry(id: "abcd1111-0000-4000-8000-000000000000", activityID: snack, time: time))
    try store.add(
      NewEntry(id: "abcd2222-0000-4000-8000-000000000000", activityID: snack, time: time))
    expectFailure(
      fixture, ["edit", "abcd", "--note", "x"], code: 65, saying: "matches abcd1111-0000 (snack")
    expectFailure(fixture, ["delete", "ABCD"], code: 65, saying: "type more digits")
    #expect(fixture.run("edit", "abcd2", "--note", "found").exitCode == 0)
  }

  @Test func anUnknownOrMalformedIdIsRefusedAndNothingChanges() {
    expectFailure(
      fixture, ["edit", "ffffffff", "--note", "x"], code: 65,
      saying: "No entry has an id starting with 'ffffffff'")
    expectFailure(
      fixture, ["edit", "xyz", "--note", "x"], code: 65, saying: "'xyz' is not an entry id")
  }

  @Test func deleteAndRestoreRoundTripAndSayWhatTheyDid() throws {
    let first = try fixture.addReturningID("snack", "apple")
    let second = try fixture.addReturningID("snack", "pear")
    let deleted = fixture.run("delete", String(first.prefix(8)), String(second.prefix(5)))
    #expect(deleted.exitCode == 0, "\(deleted)")
    #expect(deleted.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("Deleted ") })
    #expect(fixture.run("delete", first).stdout.hasPrefix("Already deleted: "))
    #expect(fixture.run("list").stdout.hasPrefix("No entries"))
    let restored = fixture.run("restore", first)
    #expect(restored.stdout.hasPrefix("Restored \(first.prefix(8)) snack"))
    #expect(fixture.run("restore", first).stdout.hasPrefix("Not deleted: "))
    #expect(fixture.run("list").stdout.contains("apple"))
  }

  @Test func oneBadIdAmongSeveralDeletesNothing() throws {
    let id = try fixture.addReturningID("snack", "apple")
    expectFailure(fixture, ["delete", id, "0000"], code: 65, saying: "'0000'")
    #expect(fixture.run("list").stdout.contains("apple"))
  }

  @Test func deleteNeedsAtLeastOneId() {
    let result = fixture.run("delete")
    #expect(result.exitCode == 64)
    #expect(result.stderr.contains("Missing expected argument '<id> ...'"))
  }
}

@Suite struct FixesFromReviewTests {
  let fixture = CLIFixture()

  @Test func noTagsClearsTheTagsAndConfirmationsShowTags() throws {
    let id = try fixture.addReturningID("snack", "--tag", "fruit")
    #expect(fixture.run("edit", id, "--tag", "nuts").stdout.hasSuffix("#nuts\n"))
    let cleared = fixture.run("edit", id, "--no-tags", "--format", "json")
    #expect(cleared.stdout.contains("\"tags\":[]"), "\(cleared)")
    #expect(fixture.run("edit", id, "--no-tags", "--tag", "x").exitCode == 64)
  }

  @Test func activityNamesMatchWhateverTheSpacingAndCase() {
    fixture.run("activity", "add", "ice cream", "--kind", "meal")
    #expect(fixture.run("add", "Ice  Cream").exitCode == 0)
  }

  @Test func settingsRefuseAFormatTheyCannotPrint() {
    #expect(fixture.run("settings", "--format", "csv").exitCode == 64)
  }

  @Test func aFolderGivenAsTheLogIsAConfigurationErrorNamingIt() {
    let result = fixture.run("list", "--db", fixture.folder.path)
    #expect(result.exitCode == 78, "\(result)")
    #expect(result.stderr.contains("Cannot open the database '\(fixture.folder.path)'"))
  }

  @Test func dbWithoutAValueSaysSo() {
    let result = fixture.run("--db")
    #expect(result.exitCode == 64)
    #expect(result.stderr.hasPrefix("Error: Missing value for '--db <path>'"))
  }

  @Test func editingADeletedEntrySaysItIsDeleted() throws {
    let id = try fixture.addReturningID("snack")
    fixture.run("delete", id)
    #expect(fixture.run("edit", id, "--note", "x").stdout.hasSuffix("(deleted)\n"))
  }

  @Test func aFutureTimeIsAcceptedWithANote() {
    let result = fixture.run("add", "dinner", "--at", "19:00")
    #expect(result.exitCode == 0)
    #expect(result.stderr.contains("is in the future"))
  }
}
