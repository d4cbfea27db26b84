import LifelogCore
import LifelogSQLite
import LifelogTestSupport
import Testing

/// The column map of the synced tables against the tables Core's migrations make: a column added
/// to a table without the map fails here, before sync could read the wrong column.
@Suite struct SyncedColumnsTests {
  let folder = TemporaryDirectory()

  /// The columns of the entity's table that the map names neither synced, derived nor local, and the
  /// names the map gives that the table lacks.
  static func mismatch(
    _ entity: SyncedEntity, in database: Database
  ) throws -> (unmapped: [String], missing: [String]) {
    let table = try database.cachedStatement(sql: "SELECT name FROM pragma_table_info(?)").map(
      [entity.table]
    ) { row -> String in row[0] }
    let mapped = entity.columns.selected + entity.columns.derived + entity.columns.local
    return (table.filter { !mapped.contains($0) }, mapped.filter { !table.contains($0) })
  }

  @Test(arguments: SyncedEntity.allCases)
  func everyColumnOfASyncedTableIsInTheMap(_ entity: SyncedEntity) throws {
    let store = try LogStore(path: folder.file("log.db"))
    let mismatch = try Self.mismatch(entity, in: store.database)
    #expect(mismatch.unmapped.isEmpty, "\(entity.table) has columns the map lacks")
    #expect(mismatch.missing.isEmpty, "the map names columns \(entity.table) lacks")
  }

  @Test func aColumnAddedToATableWithoutTheMapIsFound() throws {
    let store = try LogStore(path: folder.file("log.db"))
    try store.database.execute(sql: "ALTER TABLE entry ADD COLUMN mood TEXT")
    #expect(try Self.mismatch(.entry, in: store.database).unmapped == ["mood"])
  }

  @Test(arguments: SyncedEntity.allCases)
  func theMapHasOneEntryPerSyncedFieldInFieldOrder(_ entity: SyncedEntity) {
    #expect(entity.columns.fields.map(\.field) == entity.fields)
    #expect(entity.columns.id == entity.idColumn)
    #expect(entity.columns.selected.first == entity.columns.id)
    #expect(entity.columns.selected.last == entity.columns.stamps)
    #expect(Set(entity.columns.selected).count == entity.columns.selected.count, "no name twice")
  }

  @Test func positionsFollowTheSelectOrder() {
    let entry = SyncedEntity.entry.columns
    #expect(entry.position(of: "id") == 0)
    #expect(entry.position(of: "at") == 2 && entry.position(of: "tz_offset") == 3)
    #expect(entry.position(of: "stamps") == Int32(entry.selected.count - 1))
  }
}
