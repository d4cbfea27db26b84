import LifelogTestSupport
import Testing

/// `last`, `-1`, `-2`, … with `--activity` (or `edit --of`) wherever an entry id is taken, and
/// `show` and `again`, which read them too.
@Suite struct EntryReferenceTests {
  let fixture = CLIFixture()

  func seed() throws -> [String] {
    [
      try fixture.addReturningID(
        "breakfast", "oatmeal", "--at", "07:30", "--qty", "1", "--tag", "home"),
      try fixture.addReturningID("walk", "--at", "09:00", "--duration", "30m"),
      try fixture.addReturningID("lunch", "soup", "--at", "11:00"),
    ]
  }

  @Test func lastAndMinusNCountBackByTimeLikeTheBottomOfList() throws {
    let ids = try seed()
    // Added last, but logged earliest: `last` is by time, as `lifelog list` shows.
    let early = try fixture.addReturningID("snack", "--at", "06:00")
    #expect(fixture.run("show", "last", "--format", "json").stdout.contains("\"id\":\"\(ids[2])\""))
    #expect(fixture.run("show", "-1", "--format", "json").stdout.contains("\"id\":\"\(ids[2])\""))
    #expect(fixture.run("show", "-3", "--format", "json").stdout.contains("\"id\":\"\(ids[0])\""))
    #expect(fixture.run("show", "-4", "--format", "json").stdout.contains("\"id\":\"\(early)\""))
    #expect(
      fixture.run("show", "last", "--activity", "breakfast", "--format", "json").stdout.contains(
        "\"id\":\"\(ids[0])\""))
    #expect(fixture.run("edit", "last", "--note", "tomato soup").stdout.contains("lunch"))
    #expect(fixture.run("edit", "last", "--of", "walk", "--duration", "45m").stdout.contains("45m"))
    #expect(fixture.run("delete", "-1", "-2").stdout.contains("Deleted"))
    #expect(fixture.run("list").stdout.contains("breakfast"))
    #expect(!fixture.run("list").stdout.contains("walk"))
    // `restore last` counts among the deleted entries.
    #expect(fixture.run("restore", "last").stdout.hasPrefix("Restored \(ids[2].prefix(8)) lunch"))
  }

  @Test(arguments: [
    (["show", "-0"], 65, "not an entry reference"),
    (["show", "-1001"], 65, "not an entry reference"),
    (["show", "-5"], 65, "fewer than 5 entries"),
    (["delete", "last", "--activity", "dinner"], 65, "no entries of that activity"),
    (["restore", "last"], 65, "no deleted entries"),
    (["show", "last", "--activity", "brekfast"], 65, "did you mean 'breakfast'"),
  ])
  func badReferencesAreRefusedAndChangeNothing(
    arguments: [String], code: Int32, fragment: String
  ) throws {
    _ = try seed()
    expectFailure(fixture, arguments, code: code, saying: fragment)
  }

  @Test func showPrintsEveryFieldAndWhenAndWhereItWasWritten() throws {
    let ids = try seed()
    let text = fixture.run("show", String(ids[0].prefix(6))).stdout
    for line in [
      "id        \(ids[0])", "activity  breakfast (meal)",
      "at        Wed 2026-12-02 07:30 (2026-12-02T07:30:00+01:00)",
      "quantity  1", "note      oatmeal", "tags      #home", "deleted   no", "changed   never",
    ] {
      #expect(text.contains(line), "\(text)")
    }
    #expect(text.contains("created   ") && text.contains("on this device ("), "\(text)")
    fixture.run("edit", String(ids[0].prefix(6)), "--note", "porridge")
    let json = fixture.run("show", String(ids[0].prefix(6)), "--format", "json").stdout
    #expect(
      json.contains("\"changed\":{\"at\":")
        && json.contains("\"thisDevice\":true,\"fields\":[\"note\"]}"), "\(json)")
  }

  @Test func againRepeatsAnActivitysLatestEntryOrANamedOne() throws {
    let ids = try seed()
    let again = fixture.run("again", "breakfast", "--format", "json").stdout
    #expect(
      again.contains("\"activity\":\"breakfast\"")
        && again.contains("\"at\":\"2026-12-02T12:00:00+01:00\""))
    #expect(
      again.contains("\"note\":\"oatmeal\"") && again.contains("\"quantity\":1")
        && again.contains("[\"home\"]"))
    let walk = fixture.run("again", String(ids[1].prefix(8)), "--at", "18:00").stdout
    #expect(
      walk.hasPrefix("Added ") && walk.hasSuffix(" walk Wed 2026-12-02 18:00 30m\n"), "\(walk)")
    #expect(fixture.run("again").stdout.contains("walk Wed 2026-12-02 12:00 30m"))
    expectFailure(fixture, ["again", "dinner"], code: 65, saying: "no dinner entry to repeat")
    expectFailure(fixture, ["again", "brekfast"], code: 65, saying: "did you mean 'breakfast'")
  }
}
