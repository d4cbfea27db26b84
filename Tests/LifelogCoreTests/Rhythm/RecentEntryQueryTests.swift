import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCore

/// `last` and `-N` (edit, delete, restore, show, again) are answered from the end of the time
/// index, whatever the size of the log: SQLite's own plan says so, with no scan of the table and
/// no temporary B-tree to sort it.
@Suite struct RecentEntryQueryTests {
  /// The steps of SQLite's plan for `sql` (the `detail` column of EXPLAIN QUERY PLAN).
  func plan(_ sql: String, in store: LogStore) throws -> [String] {
    try store.database.makeStatement(sql: "EXPLAIN QUERY PLAN " + sql).map { row -> String in row[3]
    }
  }

  @Test(arguments: [false, true], [false, true])
  func theRecentEntryQueryWalksATimeIndexWithoutASort(ofOneActivity: Bool, deleted: Bool) throws {
    let store = try LogStore(path: ":memory:")
    let steps = try plan(
      LogStore.recentEntrySQL(ofOneActivity: ofOneActivity, deleted: deleted), in: store)
    let index = ofOneActivity ? "entry_by_activity" : "entry_by_time"
    let usesIndex = steps.contains { $0.contains("USING INDEX \(index)") }
    let sorts = steps.contains { $0.contains("TEMP B-TREE") }
    let scansTable = steps.contains { $0.hasPrefix("SCAN") && !$0.contains("USING") }
    #expect(usesIndex && !sorts && !scansTable, "\(steps)")
  }

  @Test func theNewestEntriesOfListAreFoundTheSameWay() throws {
    let store = try LogStore(path: ":memory:")
    let sql =
      "SELECT e.id FROM entry e LEFT JOIN activity a ON a.id = e.activity_id WHERE e.deleted = 0"
      + " ORDER BY e.at DESC, e.id DESC LIMIT 50"
    let steps = try plan(sql, in: store)
    let usesIndex = steps.contains { $0.contains("USING INDEX entry_by_time") }
    #expect(usesIndex, "\(steps)")
    let sorts = steps.contains { $0.contains("TEMP B-TREE") }
    #expect(!sorts, "\(steps)")
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

  /// A log made by an older lifelog gets the new indexes when it is opened.
  @Test func anOlderLogIsMigratedToTheNewIndexes() throws {
    let folder = TemporaryDirectory(prefix: "lifelog-recent-entry")
    let path = folder.file("log.db")
    _ = try LogStore(path: path, schemaVersion: 4)
    let store = try LogStore(path: path)
    #expect(try store.appliedMigrations().last == "v5-time-index-ties")
    let steps = try plan(LogStore.recentEntrySQL(ofOneActivity: false, deleted: false), in: store)
    let sorts = steps.contains { $0.contains("TEMP B-TREE") }
    #expect(!sorts, "\(steps)")
  }
}
