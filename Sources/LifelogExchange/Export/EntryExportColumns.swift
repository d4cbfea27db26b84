import LifelogCore
import LifelogSQLite

/// A value an export can read of an entry, with its SQL on `entry e` joined with `activity a`
/// (``LogStore/entrySource``): the entry's synced fields (``SyncedColumns``; `at` is two, the
/// instant and the offset it was logged at) and the activity's columns shown beside them.
///
/// The one field map of the exports: each export's select list is built from it, and its writer
/// reads each value by its case (``ExportRow``), never by a position of its own.
enum ExportField: Int, CaseIterable, Sendable {
  case id, at, offset, activity, kind, duration, note, quantity, unit, tags, stamps

  /// The field's name (a synced entry field's where it is one) and the SQL that reads it.
  var column: (name: String, sql: String) {
    switch self {
    case .id: ("id", StoredEntryID.text(of: "e.id"))
    case .at: ("at", "e.at")
    case .offset: ("tz_offset", "e.tz_offset")
    case .activity: ("activity", "a.name")
    case .kind: ("kind", "a.kind")
    case .duration: ("duration", "e.duration")
    case .note: ("note", "e.note")
    case .quantity: ("quantity", "e.quantity")
    case .unit: ("unit", "a.unit")
    case .tags: ("tags", "e.tags")
    case .stamps: ("stamps", "e.stamps")
    }
  }
}

/// What an export reads of each entry: the select list is built from it, the writer finds each
/// value by its ``ExportField``, and every field (each ``ExportField`` and each synced entry
/// field) is either read or left out with a reason.
///
/// So a field added to the entry or to the map is a choice for every export:
/// `EntryExportColumnsTests` fails until each export reads it or says why not.
struct EntryExportColumns: Sendable {
  /// The values of the select list, in order.
  let selected: [ExportField]
  /// The fields this export does not carry (an ``ExportField``'s name or a synced entry field's),
  /// each with why.
  let leftOut: [String: String]
  /// Each field's position in ``selected``, indexed by the field's raw value; -1 when the export
  /// does not read it.
  private let positions: [Int32]

  init(selected: [ExportField], leftOut: [String: String]) {
    self.selected = selected
    self.leftOut = leftOut
    positions = ExportField.allCases.map { field in
      selected.firstIndex(of: field).map { Int32($0) } ?? -1
    }
  }

  /// The comma-separated select list.
  var sql: String { selected.map(\.column.sql).joined(separator: ", ") }

  /// The position of `field` in ``selected``.
  ///
  /// - Precondition: the export reads `field` (a case written in code; the tests run each export).
  subscript(field: ExportField) -> Int32 {
    let position = positions[field.rawValue]
    precondition(position >= 0, "'\(field.column.name)' is not a column of this export")
    return position
  }

  /// The values every export shares, in the order an entry is read: id, time, activity.
  private static let common: [ExportField] = [
    .id, .at, .offset, .activity, .kind, .duration, .note,
  ]

  /// `export --format csv`: the columns of ``ExchangeColumn``.
  static let csv = EntryExportColumns(
    selected: common + [.quantity, .unit, .tags],
    leftOut: [
      "stamps":
        "an import stamps the entries it writes; the columns an import reads have no stamps",
      "source": "where an entry came from is not one of the columns an import reads",
      "deleted": "only live entries are exported",
    ])

  /// `export --format ics`: one event per entry.
  static let calendar = EntryExportColumns(
    selected: common + [.tags, .stamps],
    leftOut: [
      "quantity": "an event has no property for an amount",
      "unit": "an event has no property for an amount",
      "source": "not part of an event",
      "deleted": "only live entries are exported",
    ])
}

/// A row of an export's query, read by field: the writers of every export go through this, so
/// none spells where a value is.
struct ExportRow {
  let row: Row
  let columns: EntryExportColumns

  func isNull(_ field: ExportField) -> Bool { row.isNull(columns[field]) }

  subscript<T: SQLiteBindable>(_ field: ExportField) -> T { row[columns[field]] }

  func withUTF8<T>(
    _ field: ExportField, _ body: (UnsafeBufferPointer<UInt8>) throws -> T
  )
    rethrows -> T
  {
    try row.withUTF8(columns[field], body)
  }

  /// The activity's name, `(unknown activity)` for an entry whose activity is missing.
  func withActivityName<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
    guard isNull(.activity) else { return try withUTF8(.activity, body) }
    return try Array("(unknown activity)".utf8).withUnsafeBufferPointer(body)
  }

  /// The activity's kind, `other` for an entry whose activity is missing.
  func withKind<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
    guard isNull(.kind) else { return try withUTF8(.kind, body) }
    return try Array(ActivityKind.other.rawValue.utf8).withUnsafeBufferPointer(body)
  }

  /// The entry's time, on the clock it was logged on.
  var loggedTime: LoggedTime { LoggedTime(instant: self[.at], offsetMinutes: self[.offset]) }
}
