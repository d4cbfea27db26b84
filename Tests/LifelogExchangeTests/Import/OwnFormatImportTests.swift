import LifelogCore
import LifelogExchange
import LifelogTestSupport
import Testing

/// lifelog's own CSV and JSON Lines through the importer in process, on real files: an export
/// imported into an empty log exports to the same bytes, and importing it again adds nothing.
@Suite struct OwnFormatImportTests {
  /// A log with entries that use every exported field, and text the CSV guards or quotes.
  static func sampleLog() throws -> ImportHarness {
    let harness = try ImportHarness(name: "source.db")
    let store = harness.store
    let breakfast = try store.requireActivity(named: "breakfast")
    let walk = try store.requireActivity(named: "walk")
    let day: Int64 = 1_796_000_000
    _ = try store.add(
      NewEntry(
        activityID: breakfast.id, time: LoggedTime(instant: day, offsetMinutes: 60),
        note: "owsianka, \"z\" jabłkiem", quantity: 420.5, tags: ["home", "slow"]))
    _ = try store.add(
      NewEntry(
        activityID: walk.id, time: LoggedTime(instant: day + 3600, offsetMinutes: -300),
        duration: 2700, note: "=HYPERLINK(\"x\")\nsecond line", tags: ["@dog"]))
    _ = try store.add(
      NewEntry(activityID: breakfast.id, time: LoggedTime(instant: day + 86_400, offsetMinutes: 0)))
    return harness
  }

  @Test(arguments: ExchangeFormat.allCases)
  func anExportImportedIntoAnEmptyLogExportsTheSameBytes(_ format: ExchangeFormat) throws {
    let source = try Self.sampleLog()
    let exported = try source.export(format)
    let path = source.folder.file("export.\(format.rawValue)")
    try String(decoding: exported, as: UTF8.self).write(
      toFile: path, atomically: true, encoding: .utf8)

    let target = try ImportHarness()
    let first = try target.importOwn(path)
    #expect(first.added == 3)
    #expect(first.invalidCount == 0)
    #expect(try target.export(format) == exported)
    #expect(try target.entries().map(\.id) == source.entries().map(\.id))

    let again = try target.importOwn(path)
    #expect((again.added, again.updated, again.unchanged) == (0, 0, 3))
  }

  @Test func anEditedRowUpdatesItsEntryAndABadRowWritesNothing() throws {
    let harness = try ImportHarness()
    let path = try harness.write(
      """
      at,activity,note
      2026-12-06T07:30:00+01:00,breakfast,oats
      2026-12-06T12:15:00+01:00,lunch,soup
      """, to: "rows.csv")
    #expect(try harness.importOwn(path).added == 2)
    let ids = try harness.entries().map(\.id)

    let edited = try harness.write(
      "{\"id\":\"\(ids[0])\",\"at\":\"2026-12-06T07:30:00+01:00\",\"activity\":\"breakfast\","
        + "\"note\":\"eggs\"}\n", to: "edit.jsonl")
    let update = try harness.importOwn(edited)
    #expect((update.added, update.updated) == (0, 1))
    #expect(try harness.entries().first?.note == "eggs")

    let bad = try harness.write(
      "at,activity\n2026-12-07T08:00:00+01:00,breakfast\nnot a time,lunch\n", to: "bad.csv")
    #expect(throws: ImportError.self) { try harness.importOwn(bad) }
    #expect(try harness.entries().count == 2, "an import with a bad row writes nothing")
  }
}
