import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

/// `lifelog undo`: every kind of local change comes back exactly, one step per call; a step
/// whose fields changed since (a later change, a sync from another machine) is refused.
@Suite struct UndoCommandTests {
  let fixture = CLIFixture()

  /// Runs `arguments`, then `undo`, and checks the log is as it was before.
  ///
  /// - Parameter deletes: the change adds entries, which undo marks deleted (deletion is how
  ///   removals sync): they then show in `list --deleted`, so only the live log is compared.
  func expectUndoRestores(
    _ arguments: [String], deletes: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let state = { deletes ? self.liveState() : self.fixture.state() }
    let before = state()
    let deletedBefore = fixture.run("list", "--deleted", "--limit", "1000").stdout
    let change = fixture.cli.run(arguments)
    #expect(change.exitCode == 0, "\(change)", sourceLocation: sourceLocation)
    #expect(state() != before, "'\(arguments)' changed nothing", sourceLocation: sourceLocation)
    let undo = fixture.run("undo")
    #expect(
      undo.exitCode == 0 && undo.stdout.hasPrefix("Undid: "), "\(undo)",
      sourceLocation: sourceLocation)
    #expect(
      state() == before, "undo of '\(arguments)' left the log changed",
      sourceLocation: sourceLocation)
    if deletes {
      let deletedAfter = fixture.run("list", "--deleted", "--limit", "1000").stdout
      #expect(
        deletedAfter.count > deletedBefore.count, "\(deletedAfter)", sourceLocation: sourceLocation)
    }
  }

  /// The live entries, activities and settings (``CLIFixture/state()`` without deleted entries).
  func liveState() -> String {
    [
      fixture.run("list", "--format", "json", "--from", "1970-01-01").stdout,
      fixture.run("activity", "list", "--format", "json").stdout,
      fixture.run("settings", "--format", "json").stdout,
    ].joined(separator: "\n")
  }

  @Test func eachKindOfChangeIsUndoneExactly() throws {
    let id = try fixture.addReturningID(
      "breakfast", "oatmeal", "--at", "07:30", "--qty", "2", "--tag", "home")
    let prefix = String(id.prefix(8))
    expectUndoRestores(["add", "lunch", "soup", "--at", "12:00"], deletes: true)
    // The activity goes too.
    expectUndoRestores(["add", "tea", "green", "--kind", "meal"], deletes: true)
    expectUndoRestores([
      "edit", prefix, "--note", "porridge", "--at", "08:00", "--qty", "none", "--no-tags",
    ])
    expectUndoRestores(["edit", prefix, "--activity", "lunch"])
    expectUndoRestores(["delete", prefix])
    fixture.run("delete", prefix)
    expectUndoRestores(["restore", prefix])
    fixture.run("restore", prefix)
    expectUndoRestores(["again", "breakfast"], deletes: true)
    expectUndoRestores(["activity", "add", "swim", "--kind", "exercise", "--unit", "km"])
    expectUndoRestores(["activity", "rename", "walk", "stroll"])
    expectUndoRestores(["activity", "edit", "walk", "--unit", "km", "--target", "10 km/week"])
    expectUndoRestores(["activity", "archive", "run"])
    expectUndoRestores(["settings", "set", "mealGapHours", "2.5"])
    expectUndoRestores(["settings", "set", "remindQuietHours", "off"])
  }

  @Test func anImportIsOneStep() throws {
    let file = fixture.folder.file("meals.csv")
    try
      "at,activity,note\n2026-12-01 08:00,breakfast,toast\n2026-12-01 13:00,lunch,soup\n2026-12-01 16:00,tea,green\n"
      .write(toFile: file, atomically: false, encoding: .utf8)
    _ = try fixture.addReturningID("dinner", "fish", "--at", "yesterday 19:00")
    expectUndoRestores(["import", file, "--kind", "meal"], deletes: true)
    let list = fixture.run("undo", "--list").stdout
    #expect(list.contains("add ") && !list.contains("import"), "\(list)")
  }

  @Test func anImportThatUpdatesEntriesIsUndoneToTheOldValues() throws {
    let id = try fixture.addReturningID("breakfast", "oatmeal", "--at", "07:30")
    let file = fixture.folder.file("export.csv")
    let exported = fixture.run("export", "--format", "csv").stdout
    try exported.replacingOccurrences(of: "oatmeal", with: "porridge").write(
      toFile: file, atomically: false, encoding: .utf8)
    let before = fixture.state()
    #expect(fixture.run("import", file).stdout.contains("0 added, 1 updated"))
    #expect(
      fixture.run("show", String(id.prefix(8)), "--format", "json").stdout.contains(
        "\"note\":\"porridge\""))
    #expect(fixture.run("undo").stdout.hasPrefix("Undid: import "))
    #expect(fixture.state() == before)
  }

  @Test func stepsUndoNewestFirstAndTheListSaysWhatIsNext() throws {
    let id = try fixture.addReturningID("breakfast", "oatmeal", "--at", "07:30")
    fixture.run("edit", String(id.prefix(8)), "--note", "porridge")
    fixture.run("edit", String(id.prefix(8)), "--note", "toast")
    let list = fixture.run("undo", "--list").stdout
    let lines = list.split(separator: "\n")
    #expect(
      lines.count == 4 && lines[0].hasPrefix("WHEN") && lines[1].hasSuffix("\"toast\""), "\(list)")
    #expect(
      fixture.run("undo").stdout
        == "Undid: edit \(id.prefix(8)) breakfast Wed 2026-12-02 07:30 \"toast\"\n"
        + "Now: \(id.prefix(8)) breakfast Wed 2026-12-02 07:30 \"porridge\"\n")
    #expect(
      fixture.run("show", "last", "--format", "json").stdout.contains("\"note\":\"porridge\""))
    // The first edit is still undoable after the second was undone (its fields were restored).
    let two = fixture.run("undo", "--steps", "2").stdout
    #expect(two.split(separator: "\n").count == 3, "\(two)")
    #expect(fixture.run("list").stdout.hasPrefix("No entries"))
    #expect(fixture.run("undo").stdout == "Nothing to undo.\n")
    #expect(fixture.run("undo", "--list").stdout == "Nothing to undo.\n")
  }

  @Test func aStepChangedSinceByAnotherMachineIsRefusedAndNothingIsWritten() throws {
    let phone = CLIFixture()
    let remote = fixture.folder.file("usb/lifelog")
    #expect(fixture.run("remote", "add", "usb", remote).exitCode == 0)
    let id = try fixture.addReturningID("breakfast", "oatmeal", "--at", "07:30")
    #expect(fixture.run("sync").exitCode == 0)
    #expect(phone.run("remote", "add", "usb", remote).exitCode == 0)
    #expect(phone.run("sync").exitCode == 0)
    #expect(phone.run("edit", String(id.prefix(8)), "--note", "porridge").exitCode == 0)
    #expect(phone.run("sync").exitCode == 0)
    #expect(fixture.run("sync").exitCode == 0)
    expectFailure(
      fixture, ["undo"], code: 65,
      saying:
        "Cannot undo 'add \(id.prefix(8)) breakfast Wed 2026-12-02 07:30 \"oatmeal\"': entry \(id.prefix(8))'s note was changed by another machine since"
    )
    // Undoing the phone's edit there is fine, and syncs back like any change.
    #expect(phone.run("undo").stdout.hasPrefix("Undid: edit"))
    #expect(phone.run("sync").exitCode == 0)
    #expect(fixture.run("sync").exitCode == 0)
    #expect(fixture.run("show", "last", "--format", "json").stdout.contains("\"note\":\"oatmeal\""))
  }

  @Test func aStepChangedSinceOutsideACommandIsRefused() throws {
    let id = try fixture.addReturningID("breakfast", "oatmeal", "--at", "07:30")
    fixture.run("undo", "--list")
    // A change this machine made without a recorded step (as a merge would) blocks the undo.
    var changes = EntryChanges()
    changes.note = .some("porridge")
    try LogStore(path: fixture.cli.databasePath).update(id: id, with: changes)
    expectFailure(
      fixture, ["undo"], code: 65, saying: "note was changed by a later change here since")
  }

  @Test(arguments: [
    (["undo", "--steps", "0"], "from 1 to 100"), (["undo", "--steps", "101"], "from 1 to 100"),
  ])
  func badStepCountsAreRefused(arguments: [String], fragment: String) {
    expectFailure(fixture, arguments, code: 65, saying: fragment)
  }
}
