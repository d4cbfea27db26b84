import LifelogCore
import LifelogTestSupport
import Testing

/// ``ReportLog/read(from:range:settings:fields:)`` reads the store its own way (no join, the
/// whole table for a long range, ids and notes only when asked); it must give what
/// ``LogStore/entries(_:)`` gives.
@Suite struct ReportLogReadingTests {
  private func expectSameAsStore(
    _ log: ReportLog, _ store: LogStore, sourceLocation: SourceLocation = #_sourceLocation
  )
    throws
  {
    let expected = ReportLog(
      range: log.range, settings: log.settings, entries: try store.entries(EntryQuery()))
    let strip = { (entry: Entry) -> Entry in
      var entry = entry
      (entry.tags, entry.source) = ([], nil)
      return entry
    }
    #expect(log.entries == expected.entries.map(strip), sourceLocation: sourceLocation)
    #expect(log.mealBefore == expected.mealBefore.map(strip), sourceLocation: sourceLocation)
  }

  @Test func theSampleLogReadsAsTheStoreListsIt() throws {
    let sample = try SampleReports()
    try expectSameAsStore(try sample.log("2026-10-20", "2026-10-26"), sample.store)
    try expectSameAsStore(try sample.log("2026-03-28", "2026-10-27"), sample.store)
  }

  @Test func aLongRangeOverRowsStoredOutOfOrderComesOutInOrder() throws {
    // 1,500 entries stored newest first, three at each instant: the whole table is read (the
    // range holds all of it) and the entries must still come oldest first, ties by id.
    let store = try LogStore(path: ":memory:")
    let snack = ActivityName.derivedID(for: "snack")
    let walk = ActivityName.derivedID(for: "walk")
    var entries: [NewEntry] = []
    for index in (0..<500).reversed() {
      let instant = TestTime.instant("2026-10-01T08:00:00+02:00") + Int64(index) * 3600
      for copy in [2, 0, 1] {
        entries.append(
          NewEntry(
            id: ReportSampleLog.id(index * 3 + copy + 1), activityID: copy == 1 ? walk : snack,
            time: LoggedTime(instant: instant, offsetMinutes: 120), duration: copy == 1 ? 600 : nil,
            note: copy == 0 ? "note \(index)" : nil, quantity: copy == 2 ? 1.5 : nil))
      }
    }
    try store.add(contentsOf: entries)
    let range = try ReportRange(from: try day("2026-09-30"), to: try day("2026-10-25"))
    let log = try ReportLog.read(from: store, range: range, settings: ReportSettings())
    #expect(log.entries.count == 1_500)
    try expectSameAsStore(log, store)
  }

  @Test func idsAndNotesAreLeftOutWhenNotAsked() throws {
    let sample = try SampleReports()
    let range = try ReportRange(from: try day("2026-10-19"), to: try day("2026-10-19"))
    let bare = try ReportLog.read(
      from: sample.store, range: range, settings: ReportSettings(), fields: [])
    #expect(bare.entries.allSatisfy { $0.id.isEmpty && $0.note == nil })
    let notes = try ReportLog.read(
      from: sample.store, range: range, settings: ReportSettings(), fields: .notes)
    #expect(notes.entries.allSatisfy { $0.id.isEmpty })
    #expect(notes.entries.first?.note == "oatmeal, coffee")
  }

  @Test func anEntryWhoseActivityHasNotArrivedYetIsStillRead() throws {
    let store = try LogStore(path: ":memory:")
    try store.add(
      NewEntry(
        activityID: "00000000-0000-8000-8000-000000000000",
        time: try time("2026-10-19T12:00:00+02:00")))
    let range = try ReportRange(from: try day("2026-10-19"), to: try day("2026-10-19"))
    let log = try ReportLog.read(from: store, range: range, settings: ReportSettings())
    #expect(log.entries.map(\.activityName) == ["(unknown activity)"])
    try expectSameAsStore(log, store)
  }
}
