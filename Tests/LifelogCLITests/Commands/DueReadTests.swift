import LifelogCore
import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCLI

/// `lifelog due` reads the settings and the last meal in one read transaction, so a sync or an
/// `add` in another process, committing between its queries, cannot pair a meal with settings
/// from before it: the statements SQLite ran say so.
@Suite struct DueReadTests {
  @Test func dueReadsTheSettingsAndTheLastMealInOneReadTransaction() throws {
    let folder = TemporaryDirectory(prefix: "lifelog-due-read")
    let store = try LogStore(path: folder.file("lifelog.db"))
    let lunch = try #require(try store.activity(named: "lunch")).id
    _ = try store.add(
      NewEntry(activityID: lunch, time: LoggedTime(instant: 1_764_673_200, offsetMinutes: 60)))
    let (due, sql) = try store.database.statements {
      try DueText.read(
        from: store, now: 1_764_680_400, zone: FixedOffsetZone(seconds: 3600))
    }
    #expect(due.lastMeal != nil)
    let transactions = sql.filter { $0.hasPrefix("BEGIN") || $0.hasPrefix("COMMIT") }
    #expect(transactions == ["BEGIN DEFERRED", "COMMIT"], "\(sql)")
    #expect(sql.first == "BEGIN DEFERRED" && sql.last == "COMMIT", "\(sql)")
    #expect(sql.filter { $0.hasPrefix("SELECT") }.count == 2, "\(sql)")
  }
}
