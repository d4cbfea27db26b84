/// The columns behind each synced field, in ``SyncedEntity/fields`` order: what an undo step
/// keeps of a row and writes back.
///
/// A field may span several columns (`at` is the instant and its offset; an activity's `name` is
/// the name and its case-folded key), and they are always saved and restored together.
enum UndoColumns {
  /// Each field's columns, from the one column map (``SyncedColumns/stored``): a column added
  /// there is kept by undo too.
  static func columns(of entity: SyncedEntity) -> [[String]] { entity.columns.stored }

  /// Every column, flattened in order: the positions of the saved JSON array.
  static func flat(_ entity: SyncedEntity) -> [String] { columns(of: entity).flatMap { $0 } }

  /// `json_array(?, ?, …)` with `count` parameters: a row's values, bound in ``flat(_:)`` order,
  /// as SQLite's JSON keeps them (integers, reals, text and null each come back as what they were).
  static func jsonArray(placeholders count: Int) -> String {
    "json_array(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
  }

  /// The positions in ``flat(_:)`` of field `index`'s columns.
  static func positions(
    of entity: SyncedEntity, field index: Int
  ) -> [(column: String, position: Int)] {
    let all = columns(of: entity)
    let start = all.prefix(index).reduce(0) { $0 + $1.count }
    return all[index].enumerated().map { ($0.element, start + $0.offset) }
  }
}
