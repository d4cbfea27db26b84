import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCore

/// Every consumer of the entry's fields derives from, or is checked against, the one column map
/// (`SyncedColumns`): a field added to the entry and not handled by undo or an export fails here.
@Suite struct EntryExportColumnsTests {
  static let exports: [(name: String, columns: EntryExportColumns)] = [
    ("csv", .csv), ("ics", .calendar),
  ]

  /// The synced entry fields an export neither reads nor leaves out with a reason.
  static func unhandled(_ export: EntryExportColumns, fields: [String]) -> [String] {
    let read = Set(export.selected.map(\.name))
    return fields.filter { !read.contains($0) && export.leftOut[$0] == nil }
  }

  @Test(arguments: exports.map(\.name))
  func everyExportReadsOrLeavesOutEachSyncedEntryField(_ name: String) throws {
    let export = try #require(Self.exports.first { $0.name == name }).columns
    let fields = SyncedEntity.entry.fields
    #expect(Self.unhandled(export, fields: fields).isEmpty)
    let both = export.selected.map(\.name).filter { export.leftOut[$0] != nil }
    #expect(both.isEmpty, "a field both read and left out")
    #expect(export.leftOut.keys.allSatisfy(fields.contains), "a reason for a field that is none")
  }

  @Test func aFieldAddedToTheEntryIsUnhandledByEveryExport() {
    let fields = SyncedEntity.entry.fields + ["mood"]
    for export in Self.exports {
      #expect(Self.unhandled(export.columns, fields: fields) == ["mood"], "\(export.name)")
    }
  }

  @Test func theCSVExportReadsTheColumnsOfItsHeader() {
    let read = EntryExportColumns.csv.selected.map(\.name).filter { $0 != "tz_offset" }
    #expect(read == ExchangeColumn.allCases.map(\.rawValue))
  }

  /// Undo keeps every column of each synced table but its id and stamps: it derives from the map,
  /// and the map is checked against the tables (`SyncedColumnsTests`).
  @Test(arguments: SyncedEntity.allCases)
  func undoKeepsEveryColumnOfTheTableButTheIdAndStamps(_ entity: SyncedEntity) throws {
    let folder = TemporaryDirectory()
    let store = try LogStore(path: folder.file("log.db"))
    let table = try store.database.cachedStatement(sql: "SELECT name FROM pragma_table_info(?)")
      .map([entity.table]) { row -> String in row[0] }
    let kept = UndoColumns.flat(entity)
    #expect(Set(kept) == Set(table).subtracting([entity.columns.id, entity.columns.stamps]))
    #expect(UndoColumns.columns(of: entity).count == entity.fields.count)
  }
}
