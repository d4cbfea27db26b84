import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCore

/// `last` and `-N` (edit, delete, restore, show, again) are answered from the end of the time
/// index, whatever the size of the log: SQLite's own plan says so, with no scan of the table and
/// no sort of it (only ties on `at` are sorted, "FOR RIGHT PART OF ORDER BY", which LIMIT ends
/// early).
@Suite struct RecentEntryQueryTests {
  /// The steps of SQLite's plan for `sql` (the `detail` column of EXPLAIN QUERY PLAN).
  func plan(_ sql: String, in store: LogStore) throws -> [String] {
    try store.database.makeStatement(sql: "EXPLAIN QUERY PLAN " + sql).map { row -> String in row[3]
    }
  }

  /// The plan walks `index` and sorts at most the ties on `at`: no scan of the table, no sort of
  /// all its rows.
  func expectIndexWalk(_ steps: [String], of index: String) {
    let usesIndex = steps.contains { $0.contains("USING INDEX \(index)") }
    let scansTable = steps.contains { $0.hasPrefix("SCAN") && !$0.contains("USING") }
    let sortsAll = steps.contains {
      $0.contains("TEMP B-TREE") && !$0.contains("FOR RIGHT PART OF ORDER BY")
    }
    #expect(usesIndex && !scansTable && !sortsAll, "\(steps)")
  }

  @Test(arguments: [false, true], [false, true])
  func theRecentEntryQueryWalksATimeIndex(ofOneActivity: Bool, deleted: Bool) throws {
    let store = try LogStore(path: ":memory:")
    let steps = try plan(
      LogStore.recentEntrySQL(ofOneActivity: ofOneActivity, deleted: deleted), in: store)
    expectIndexWalk(steps, of: ofOneActivity ? "entry_by_activity" : "entry_by_time")
  }

  /// With a real log's statistics in place, the planner cannot talk itself into a scan.
  @Test func theRecentEntryQueryWalksTheIndexOfAnAnalyzedLog() throws {
    let store = try LogStore(path: ":memory:")
    let snack = try #require(try store.activity(named: "snack")).id
    for minute in 0..<200 {
      let time = LoggedTime(instant: 1_764_662_400 + Int64(minute / 2) * 60, offsetMinutes: 60)
      _ = try store.add(NewEntry(activityID: snack, time: time))
    }
    try store.database.execute(sql: "ANALYZE")
    for ofOneActivity in [false, true] {
      let steps = try plan(
        LogStore.recentEntrySQL(ofOneActivity: ofOneActivity, deleted: false), in: store)
      expectIndexWalk(steps, of: ofOneActivity ? "entry_by_activity" : "entry_by_time")
    }
  }

  @Test func theNewestEntriesOfListAreFoundTheSameWay() throws {
    let store = try LogStore(path: ":memory:")
    let sql =
      "SELECT \(LogStore.entryColumns) FROM \(LogStore.entrySource) WHERE e.deleted = 0"
      + " ORDER BY e.at DESC, e.id DESC LIMIT 50"
    let steps = try plan(sql, in: store)
    expectIndexWalk(steps, of: "entry_by_time")
  }

  /// Ties on `at` are broken by `id`, as `lifelog list` orders them: `last` is its bottom row.
  @Test func tiesOnTheTimeCountBackByIDAsListShowsThem() throws {
    let store = try LogStore(path: ":memory:")
    let snack = try #require(try store.activity(named: "snack")).id
    let time = LoggedTime(instant: 1_764_662_400, offsetMinutes: 60)
    let ids = ["0000000b-0000-4000-8000-000000000000", "0000000a-0000-4000-8000-000000000000"]
    for id in ids { _ = try store.add(NewEntry(id: id, activityID: snack, time: time)) }
    let listed = try store.entries(EntryQuery(limit: 2)).map(\.id)
    #expect(listed == ids.sorted())
    #expect(try store.recentEntryID(back: 1, activityID: nil, deleted: false) == listed.last)
    #expect(try store.recentEntryID(back: 2, activityID: snack, deleted: false) == listed.first)
    #expect(try store.recentEntryID(back: 3, activityID: nil, deleted: false) == nil)
  }
}
