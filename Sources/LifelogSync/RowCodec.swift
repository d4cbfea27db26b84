import LifelogCore
import LifelogSQLite

/// Moves whole rows between the local tables and ``RowChange`` values: reading rows to send, and
/// writing merged rows back.
///
/// The only place that knows how each entity's fields map to columns.
enum RowCodec {
  /// The SELECT list for each entity, in field order, with the id first and the stamps last.
  static func columns(_ entity: SyncedEntity, prefix: String = "") -> String {
    let names: [String] =
      switch entity {
      case .entry:
        [
          "id", "activity_id", "at", "tz_offset", "duration", "note", "quantity", "tags", "source",
          "deleted", "stamps",
        ]
      case .activity: ["id", "name", "kind", "unit", "target", "archived", "deleted", "stamps"]
      case .setting: ["key", "value", "stamps"]
      }
    return names.map { prefix + $0 }.joined(separator: ", ")
  }

  /// Decodes a row selected with ``columns(_:prefix:)``.
  static func decode(_ entity: SyncedEntity, _ row: Row) -> RowChange {
    func text(_ index: Int32) -> FieldValue {
      (row[index] as String?).map(FieldValue.text) ?? .null
    }
    let values: [FieldValue]
    let stampsColumn: Int32
    switch entity {
    case .entry:
      let tags: String = row[7]
      values = [
        .text(row[1]), .time(LoggedTime(instant: row[2], offsetMinutes: row[3])),
        (row[4] as Int64?).map(FieldValue.integer) ?? .null, text(5),
        (row[6] as Double?).map(FieldValue.real) ?? .null,
        .tags(tags.isEmpty ? [] : tags.split(separator: " ").map(String.init)), text(8),
        .flag(row[9]),
      ]
      stampsColumn = 10
    case .activity:
      values = [.text(row[1]), .text(row[2]), text(3), text(4), .flag(row[5]), .flag(row[6])]
      stampsColumn = 7
    case .setting:
      values = [.text(row[1])]
      stampsColumn = 2
    }
    return RowChange(
      entity: entity, id: row[0], values: values,
      stamps: FieldStamps(decoding: row[stampsColumn], count: entity.fields.count))
  }

  /// The row as it is stored now, if it exists.
  static func read(_ entity: SyncedEntity, id: String, in database: Database) throws -> RowChange? {
    try database.cachedStatement(
      sql: "SELECT \(columns(entity)) FROM \(entity.table) WHERE \(entity.idColumn) = ?"
    ).first([id]) { decode(entity, $0) }
  }

  /// Inserts or replaces a whole row.
  static func write(_ change: RowChange, in database: Database) throws {
    let v = change.values
    switch change.entity {
    case .entry:
      guard case .time(let time) = v[1] else { return }
      var tags: [String] = []
      if case .tags(let list) = v[5] { tags = list }
      try database.execute(
        sql: """
          INSERT INTO entry (id, activity_id, at, tz_offset, duration, note, quantity, tags, source, deleted, stamps)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (id) DO UPDATE SET activity_id = excluded.activity_id, at = excluded.at,
            tz_offset = excluded.tz_offset, duration = excluded.duration, note = excluded.note,
            quantity = excluded.quantity, tags = excluded.tags, source = excluded.source,
            deleted = excluded.deleted, stamps = excluded.stamps
          """,
        arguments: [
          change.id, text(v[0]) ?? "", time.instant, time.offsetMinutes,
          integer(v[2]).map { max(0, $0) },
          text(v[3]), real(v[4]), tags.joined(separator: " "), text(v[6]), flag(v[7]),
          change.stamps.encoded,
        ])
    case .activity:
      let name = text(v[0]) ?? ""
      let kind = ActivityKind(rawValue: text(v[1]) ?? "") ?? .other
      try database.execute(
        sql: """
          INSERT INTO activity (id, name, name_key, kind, unit, target, archived, deleted, stamps)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
            kind = excluded.kind, unit = excluded.unit, target = excluded.target,
            archived = excluded.archived, deleted = excluded.deleted, stamps = excluded.stamps
          """,
        arguments: [
          change.id, name, ActivityName.key(name), kind.rawValue, text(v[2]), text(v[3]),
          flag(v[4]), flag(v[5]),
          change.stamps.encoded,
        ])
    case .setting:
      try database.execute(
        sql: """
          INSERT INTO setting (key, value, stamps) VALUES (?, ?, ?)
          ON CONFLICT (key) DO UPDATE SET value = excluded.value, stamps = excluded.stamps
          """,
        arguments: [change.id, text(v[0]) ?? "", change.stamps.encoded])
    }
  }

  /// Merges `incoming` into `existing` field by field: the larger stamp wins (docs/design.md §3).
  ///
  /// - Returns: the merged row, or nil when `existing` already holds everything `incoming` has.
  static func merge(_ incoming: RowChange, into existing: RowChange?) -> RowChange? {
    guard var merged = existing else { return incoming }
    var changed = false
    for index in incoming.values.indices where incoming.stamps[index] > merged.stamps[index] {
      merged.values[index] = incoming.values[index]
      merged.stamps[index] = incoming.stamps[index]
      changed = true
    }
    return changed ? merged : nil
  }

  private static func text(_ value: FieldValue) -> String? {
    if case .text(let text) = value { return text }
    return nil
  }

  private static func integer(_ value: FieldValue) -> Int64? {
    if case .integer(let number) = value { return number }
    return nil
  }

  private static func real(_ value: FieldValue) -> Double? {
    if case .real(let number) = value { return number }
    if case .integer(let number) = value { return Double(number) }
    return nil
  }

  private static func flag(_ value: FieldValue) -> Bool {
    if case .flag(let flag) = value { return flag }
    return false
  }
}
