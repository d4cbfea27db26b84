import LifelogSQLite

/// A local field value that a sync replaced with a later change from another machine.
///
/// Merging keeps the later write of each field (docs/design.md §3), so an edit made here and a
/// later edit of the same field elsewhere leave only the later one. That is the rule, but never
/// silently: each such replacement is kept (local-only, schema v6) so `sync` can name it, `status`
/// can show the last list and `show ID` the value that lost, which can then be put back.
public struct ReplacedField: Equatable, Sendable {
  /// How many rows are kept; older ones are dropped when a sync records more.
  public static let keptRows = 1_000
  /// The longest value kept, in characters: enough to put a note back by hand.
  public static let keptValueLength = 2_000

  public var entity: SyncedEntity
  /// The row's id (an entry's full id).
  public var id: String
  public var field: String
  /// The value this machine had, as shown to a person (empty for none).
  public var localValue: String
  public var localStamp: String
  /// The later value from elsewhere that replaced it.
  public var remoteValue: String
  public var remoteStamp: String
  /// The machine that wrote the later value (its device id, from the batch).
  public var remoteDevice: String
  /// When the sync that merged it started (Unix milliseconds).
  public var runMilliseconds: Int64

  public init(
    entity: SyncedEntity, id: String, field: String, localValue: String, localStamp: String,
    remoteValue: String, remoteStamp: String, remoteDevice: String, runMilliseconds: Int64
  ) {
    self.entity = entity
    self.id = id
    self.field = field
    self.localValue = String(localValue.prefix(Self.keptValueLength))
    self.localStamp = localStamp
    self.remoteValue = String(remoteValue.prefix(Self.keptValueLength))
    self.remoteStamp = remoteStamp
    self.remoteDevice = remoteDevice
    self.runMilliseconds = runMilliseconds
  }
}

extension LogStore {
  private static let replacedColumns =
    "entity, id, field, local_value, local_stamp, remote_value, remote_stamp, remote_device, run_ms"

  /// Keeps replaced fields, dropping the oldest beyond ``ReplacedField/keptRows``.
  ///
  /// Call inside the transaction that merges them, so they are kept exactly when the merge is.
  public func recordReplaced(_ fields: [ReplacedField]) throws {
    guard !fields.isEmpty else { return }
    let insert = try database.cachedStatement(
      sql:
        "INSERT INTO local_replaced_field (\(LogStore.replacedColumns)) VALUES (?,?,?,?,?,?,?,?,?)")
    for field in fields {
      try insert.execute([
        field.entity.rawValue, field.id, field.field, field.localValue, field.localStamp,
        field.remoteValue, field.remoteStamp, field.remoteDevice, field.runMilliseconds,
      ])
    }
    try database.execute(
      sql: """
        DELETE FROM local_replaced_field WHERE rowid <= (
          SELECT rowid FROM local_replaced_field ORDER BY rowid DESC LIMIT 1 OFFSET ?)
        """,
      arguments: [ReplacedField.keptRows])
  }

  /// The fields replaced by the sync that started at `runMilliseconds`, oldest first.
  public func replacedFields(run runMilliseconds: Int64) throws -> [ReplacedField] {
    try read {
      try database.cachedStatement(
        sql:
          "SELECT \(LogStore.replacedColumns) FROM local_replaced_field WHERE run_ms = ? ORDER BY rowid"
      ).map([runMilliseconds], LogStore.decodeReplaced)
    }
  }

  /// The fields replaced by the last sync that replaced any, oldest first (empty if none ever did).
  public func lastReplacedFields() throws -> [ReplacedField] {
    try read {
      try database.cachedStatement(
        sql: """
          SELECT \(LogStore.replacedColumns) FROM local_replaced_field
          WHERE run_ms = (SELECT max(run_ms) FROM local_replaced_field) ORDER BY rowid
          """
      ).map([], LogStore.decodeReplaced)
    }
  }

  /// The replaced values of one row, oldest first.
  public func replacedFields(ofRow id: String) throws -> [ReplacedField] {
    try read {
      try database.cachedStatement(
        sql:
          "SELECT \(LogStore.replacedColumns) FROM local_replaced_field WHERE id = ? ORDER BY rowid"
      ).map([id], LogStore.decodeReplaced)
    }
  }

  static func decodeReplaced(_ row: Row) throws -> ReplacedField {
    ReplacedField(
      entity: SyncedEntity(rawValue: row[0]) ?? .entry, id: row[1], field: row[2],
      localValue: row[3], localStamp: row[4], remoteValue: row[5], remoteStamp: row[6],
      remoteDevice: row[7], runMilliseconds: row[8])
  }
}
