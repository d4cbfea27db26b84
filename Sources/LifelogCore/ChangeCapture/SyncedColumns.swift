/// The columns of a synced table, named in one place: the schema is Core's (``Migration``), and
/// whoever reads or writes whole rows (the sync's row codec) finds each field's columns here by
/// name, never by position, so a column added to a table cannot shift what is read.
///
/// Every column of the table is either synced (``selected``), ``derived`` or ``local``; a test
/// compares them with the table the migrations make, so a column added without this map fails it.
public struct SyncedColumns: Sendable {
  /// The column holding the row id.
  public let id: String
  /// Each field of ``SyncedEntity/fields`` with its columns, in field order: one column each,
  /// but the entry's `at` is two (the instant and the offset it was logged at).
  public let fields: [(field: String, columns: [String])]
  /// The column holding the field stamps (``FieldStamps``).
  public let stamps = "stamps"
  /// Columns that are not synced because they are computed from synced ones when a row is
  /// written (the activity's `name_key`, for lookups by name).
  public let derived: [String]
  /// Columns that are the device's own bookkeeping, never synced and never part of a field.
  ///
  /// An entry's `add_step` (the undo step of the `add` that wrote it, schema v8); undo neither
  /// keeps nor restores them.
  public let local: [String]
  /// Each field's columns followed by the derived columns computed from it, in field order: what
  /// a whole field is when a row is saved and restored (undo), so a field and its derived columns
  /// always travel together.
  public let stored: [[String]]

  /// The columns of a whole synced row in the order a row is selected: the id, each field's
  /// columns in field order, the stamps.
  public let selected: [String]
  /// Where each of ``selected`` is, computed once: the codec looks columns up for every row.
  private let positions: [String: Int32]
  /// Columns stored in another form than sync sends them, with the SQL that reads each one as
  /// sent, and the SQL that stores a value bound as sent (an entry's id and activity are keys).
  private let reads: [String: String]
  private let writes: [String: String]

  /// - Parameter derived: each derived column with the field it is computed from.
  init(
    id: String, fields: [(field: String, columns: [String])],
    derived: [(column: String, field: String)], local: [String] = [],
    reads: [String: String] = [:], writes: [String: String] = [:]
  ) {
    self.id = id
    self.fields = fields
    self.derived = derived.map(\.column)
    self.local = local
    stored = fields.map { field in
      field.columns + derived.filter { $0.field == field.field }.map(\.column)
    }
    self.reads = reads
    self.writes = writes
    selected = [id] + fields.flatMap(\.columns) + ["stamps"]
    positions = Dictionary(
      selected.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { first, _ in first })
  }

  /// The SQL that reads `column` in the form sync sends it.
  public func read(_ column: String) -> String { reads[column] ?? column }

  /// The SQL that stores a value of `column` bound as sync sends it (`?` for most).
  public func write(_ column: String) -> String { writes[column] ?? "?" }

  /// The position of `column` in ``selected``.
  ///
  /// - Precondition: `column` is one of them (a name written in code, never read from outside;
  ///   the schema test reads every one).
  public func position(of column: String) -> Int32 {
    guard let position = positions[column] else {
      preconditionFailure("'\(column)' is not a synced column of this table")
    }
    return position
  }
}

extension SyncedEntity {
  /// The columns of this entity's table (``table``).
  public var columns: SyncedColumns {
    switch self {
    case .activity: SyncedColumns.activity
    case .entry: SyncedColumns.entry
    case .setting: SyncedColumns.setting
    }
  }
}

extension SyncedColumns {
  static let activity = SyncedColumns(
    id: "id",
    fields: [
      ("name", ["name"]), ("kind", ["kind"]), ("unit", ["unit"]), ("target", ["target"]),
      ("archived", ["archived"]), ("deleted", ["deleted"]),
    ],
    derived: [("name_key", "name")])
  static let entry = SyncedColumns(
    id: "id",
    fields: [
      ("activity", ["activity"]), ("at", ["at", "tz_offset"]), ("duration", ["duration"]),
      ("note", ["note"]), ("quantity", ["quantity"]), ("tags", ["tags"]),
      ("source", ["source"]), ("deleted", ["deleted"]),
    ],
    derived: [], local: ["add_step"],
    reads: [
      "id": StoredEntryID.text(of: "id"),
      "activity": "(SELECT id FROM activity_key WHERE key = activity)",
    ],
    writes: ["id": StoredEntryID.parameter])
  static let setting = SyncedColumns(id: "key", fields: [("value", ["value"])], derived: [])
}
