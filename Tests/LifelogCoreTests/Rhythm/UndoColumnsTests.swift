import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCore

/// Undo's columns derive from the one column map (``SyncedColumns``), which `SyncedColumnsTests`
/// checks against the tables: a column added to a synced table and not kept by undo fails here.
@Suite struct UndoColumnsTests {
  /// Undo keeps every column of each synced table but its id, its stamps and the device's own
  /// bookkeeping (``SyncedColumns/local``): it derives from the map, and the map is checked
  /// against the tables (`SyncedColumnsTests`).
  @Test(arguments: SyncedEntity.allCases)
  func undoKeepsEveryColumnOfTheTableButTheIdAndStamps(_ entity: SyncedEntity) throws {
    let folder = TemporaryDirectory()
    let store = try LogStore(path: folder.file("log.db"))
    let table = try store.database.cachedStatement(sql: "SELECT name FROM pragma_table_info(?)")
      .map([entity.table]) { row -> String in row[0] }
    let kept = UndoColumns.flat(entity)
    let notKept = [entity.columns.id, entity.columns.stamps] + entity.columns.local
    #expect(Set(kept) == Set(table).subtracting(notKept))
    #expect(UndoColumns.columns(of: entity).count == entity.fields.count)
  }
}
