import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogExchange

/// Every consumer of the entry's fields derives from, or is checked against, the one column map
/// (`SyncedColumns`) and the exports' field map (``ExportField``): a field added to the entry or
/// to the map and not handled by undo or an export fails here.
@Suite struct EntryExportColumnsTests {
  static let exports: [(name: String, columns: EntryExportColumns)] = [
    ("csv", .csv), ("ics", .calendar),
  ]

  /// The fields (synced entry fields, or ``ExportField`` names) an export neither reads nor
  /// leaves out with a reason.
  static func unhandled(_ export: EntryExportColumns, fields: [String]) -> [String] {
    let read = Set(export.selected.map(\.column.name))
    return fields.filter { !read.contains($0) && export.leftOut[$0] == nil }
  }

  @Test(arguments: exports.map(\.name))
  func everyExportReadsOrLeavesOutEachSyncedEntryField(_ name: String) throws {
    let export = try #require(Self.exports.first { $0.name == name }).columns
    let fields = SyncedEntity.entry.fields
    #expect(Self.unhandled(export, fields: fields).isEmpty)
    let both = export.selected.map(\.column.name).filter { export.leftOut[$0] != nil }
    #expect(both.isEmpty, "a field both read and left out")
    let named = Set(fields + ExportField.allCases.map(\.column.name))
    #expect(export.leftOut.keys.allSatisfy(named.contains), "a reason for a field that is none")
  }

  /// The field map's every value is a choice for every export: a case added to ``ExportField``
  /// and not read or left out by one of them fails here.
  @Test(arguments: exports.map(\.name))
  func everyExportReadsOrLeavesOutEachFieldOfTheMap(_ name: String) throws {
    let export = try #require(Self.exports.first { $0.name == name }).columns
    #expect(Self.unhandled(export, fields: ExportField.allCases.map(\.column.name)).isEmpty)
  }

  @Test func eachFieldOfTheMapIsFoundWhereTheExportSelectsIt() {
    for export in Self.exports {
      for (position, field) in export.columns.selected.enumerated() {
        #expect(export.columns[field] == Int32(position), "\(export.name): \(field)")
      }
      #expect(Set(export.columns.selected).count == export.columns.selected.count)
    }
  }

  @Test func aFieldAddedToTheEntryIsUnhandledByEveryExport() {
    let fields = SyncedEntity.entry.fields + ["mood"]
    for export in Self.exports {
      #expect(Self.unhandled(export.columns, fields: fields) == ["mood"], "\(export.name)")
    }
  }

  @Test func theCSVExportReadsTheColumnsOfItsHeader() {
    let read = EntryExportColumns.csv.selected.filter { $0 != .offset }.map(\.column.name)
    #expect(read == ExchangeColumn.allCases.map(\.rawValue))
  }
}
