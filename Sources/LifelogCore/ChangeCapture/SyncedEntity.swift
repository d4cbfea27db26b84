/// The synced entity types of docs/design.md §2 and the fields of each, in the order their stamps
/// are stored.
///
/// The order is part of the on-disk format: new fields are only ever appended.
public enum SyncedEntity: String, CaseIterable, Sendable {
  case activity, entry, setting

  public var fields: [String] {
    switch self {
    case .activity: ["name", "kind", "unit", "target", "archived", "deleted"]
    case .entry: ["activity", "at", "duration", "note", "quantity", "tags", "source", "deleted"]
    case .setting: ["value"]
    }
  }

  /// The position of `field` in ``fields``.
  public func index(of field: String) -> Int? { fields.firstIndex(of: field) }

  /// The local table holding this entity.
  public var table: String { rawValue }

  /// The column of the table holding the row id.
  public var idColumn: String { self == .setting ? "key" : "id" }

  /// A condition matching one row by its id given as text in parameter `placeholder` (`?`,
  /// `?2`): an entry id is stored in ``StoredEntryID``'s form, so it is converted first.
  public func idMatch(_ placeholder: String = "?") -> String {
    self == .entry
      ? "\(idColumn) = \(StoredEntryID.keyFunction)(\(placeholder))"
      : "\(idColumn) = \(placeholder)"
  }
}
