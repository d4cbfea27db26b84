import LifelogCore
import LifelogExchange
import LifelogTestSupport
import Testing

/// Each `--from` source through the importer in process, on a real file in that tool's format:
/// the entries it makes, and a second import of the same file that adds nothing (each record's
/// id is stable).
@Suite struct ForeignImportTests {
  /// Imports `path` from `source` twice: the second import finds every entry unchanged.
  func importTwice(
    _ harness: ImportHarness, _ source: ForeignSource, _ path: String, activity: String? = nil
  ) throws -> ImportSummary {
    let first = try harness.importForeign(source, path, activity: activity)
    let again = try harness.importForeign(source, path, activity: activity)
    #expect((again.added, again.updated, again.unchanged) == (0, 0, first.added), "\(source)")
    return first
  }

  @Test func timewarriorIntervalsBecomeEntriesOfTheirFirstTag() throws {
    let harness = try ImportHarness()
    let path = try harness.write(
      """
      [
      {"id":2,"start":"20261201T083000Z","end":"20261201T093000Z","tags":["coding","lifelog"],
       "annotation":"import module"},
      {"id":1,"start":"20261201T120000Z","end":"20261201T121500Z","tags":["walk"]},
      {"id":3,"start":"20261201T130000Z","tags":["coding"]}
      ]
      """, to: "timew.json")
    let summary = try importTwice(harness, .timewarrior, path)
    #expect(summary.added == 2)
    let entries = try harness.entries()
    #expect(entries.map(\.activityName) == ["coding", "walk"])
    #expect(entries[0].time.iso8601 == "2026-12-01T09:30:00+01:00")
    #expect(entries[0].duration == 3600)
    #expect(entries[0].tags == ["lifelog"])
    #expect(entries[0].note == "import module")
  }

  @Test func watsonFramesAndLogObjectsBecomeEntriesOfTheirProject() throws {
    let harness = try ImportHarness()
    let frames = try harness.write(
      """
      [[1796000000, 1796001800, "reading", "a1b2c3", ["book"], 1796001800]]
      """, to: "frames")
    #expect(try importTwice(harness, .watson, frames).added == 1)
    let log = try harness.write(
      """
      [{"id": "d4e5f6", "start": "2026-12-02T18:00:00+01:00", "stop": "2026-12-02T18:45:00+01:00",
        "project": "gym", "tags": ["legs"]}]
      """, to: "log.json")
    #expect(try importTwice(harness, .watson, log).added == 1)
    let entries = try harness.entries()
    #expect(entries.map(\.activityName) == ["reading", "gym"])
    #expect(entries.map(\.duration) == [1800, 2700])
    #expect(entries[1].time.iso8601 == "2026-12-02T18:00:00+01:00")
    #expect(entries[1].tags == ["legs"])
  }

  @Test func jrnlEntriesBecomeNotesOfOneActivity() throws {
    let harness = try ImportHarness()
    let path = try harness.write(
      """
      {"tags": {"@dog": 1}, "entries": [
        {"date": "2026-12-03", "time": "21:10", "title": "Long walk.", "body": "Rain all day.",
         "tags": ["@dog"], "starred": false}
      ]}
      """, to: "jrnl.json")
    #expect(try importTwice(harness, .jrnl, path, activity: "diary").added == 1)
    let entry = try #require(harness.entries().first)
    #expect(entry.activityName == "diary")
    #expect(entry.time.iso8601 == "2026-12-03T21:10:00+01:00")
    #expect(entry.note == "Long walk.\nRain all day.")
    #expect(entry.tags == ["dog"])
  }

  @Test func cronometerServingsBecomeOneMealPerGroup() throws {
    let harness = try ImportHarness()
    let path = ImportHarness.fixtures + "/cronometer-servings.csv"
    #expect(try importTwice(harness, .cronometer, path).added == 3)
    let entries = try harness.entries()
    #expect(entries.map(\.activityName) == ["breakfast", "lunch", "snack"])
    #expect(entries[0].time.iso8601 == "2026-11-30T08:10:00+01:00")
    #expect(entries[0].note == "Oats, rolled (50.00 g); Milk 2% (250.00 ml)")
    #expect(entries.allSatisfy { $0.kind == .meal })
  }

  @Test(arguments: [false, true])
  func appleHealthRecordsBecomeEntriesFromTheXMLOrItsZip(zipped: Bool) throws {
    let harness = try ImportHarness()
    var path = ImportHarness.fixtures + "/apple-health-export.xml"
    if zipped {
      try harness.python(
        """
        import zipfile
        with zipfile.ZipFile("export.zip", "w", zipfile.ZIP_DEFLATED) as z:
            z.write(\(String(reflecting: path)), "apple_health_export/export.xml")
        """)
      path = harness.folder.file("export.zip")
    }
    #expect(try importTwice(harness, .appleHealth, path).added == 6)
    let entries = try harness.entries()
    let sleep = entries.filter { $0.activityName == "sleep" }
    #expect(sleep.count == 2)
    #expect(sleep.first?.duration == 25_800)
    let running = try #require(entries.first { $0.activityName == "running" })
    #expect(running.duration == 1950)
    #expect(running.quantity == 5.2)
    #expect(running.kind == .exercise)
    #expect(entries.first { $0.activityName == "meal" }?.note == "Porridge & berries")
  }

  @Test func everySourceHasATestHere() {
    let tested: Set<ForeignSource> = [.timewarrior, .watson, .jrnl, .cronometer, .appleHealth]
    #expect(Set(ForeignSource.allCases) == tested, "a source without an in-process import test")
  }
}
