/// What an export reads of each entry, by name: the select list is built from it, the writer
/// finds each value by its name, and every synced entry field (``SyncedColumns``) is either read
/// or left out with a reason.
///
/// So a field added to the entry is a choice for every export: `EntryExportColumnsTests` fails
/// until each export reads it or says why not.
struct EntryExportColumns: Sendable {
  /// Each value of the select list: its name (a synced entry field where it is one) and its SQL
  /// on `entry e` joined with `activity a` (``LogStore/entrySource``).
  let selected: [(name: String, sql: String)]
  /// The synced entry fields this export does not carry, each with why.
  let leftOut: [String: String]

  /// The comma-separated select list.
  var sql: String { selected.map(\.sql).joined(separator: ", ") }

  /// The position of `name` in ``selected``.
  ///
  /// - Precondition: `name` is one of them (a name written in code; the tests read each one).
  func position(of name: String) -> Int32 {
    guard let index = selected.firstIndex(where: { $0.name == name }) else {
      preconditionFailure("'\(name)' is not a column of this export")
    }
    return Int32(index)
  }

  /// The values every export shares, in the order an entry is read: id, time, activity.
  private static let common: [(name: String, sql: String)] = [
    ("id", StoredEntryID.text(of: "e.id")), ("at", "e.at"), ("tz_offset", "e.tz_offset"),
    ("activity", "a.name"), ("kind", "a.kind"), ("duration", "e.duration"), ("note", "e.note"),
  ]

  /// `export --format csv`: the columns of ``ExchangeColumn``.
  static let csv = EntryExportColumns(
    selected: common + [("quantity", "e.quantity"), ("unit", "a.unit"), ("tags", "e.tags")],
    leftOut: [
      "source": "where an entry came from is not one of the columns an import reads",
      "deleted": "only live entries are exported",
    ])

  /// `export --format ics`: one event per entry.
  static let calendar = EntryExportColumns(
    selected: common + [("tags", "e.tags"), ("stamps", "e.stamps")],
    leftOut: [
      "quantity": "an event has no property for an amount",
      "source": "not part of an event",
      "deleted": "only live entries are exported",
    ])
}
