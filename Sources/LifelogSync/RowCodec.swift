import LifelogCore
import LifelogProtocol
import LifelogSQLite

/// Moves whole rows between the local tables and ``RowChange`` values: reading rows to send, and
/// writing merged rows back.
///
/// It knows how each field maps to values; which columns hold them is Core's ``SyncedColumns``,
/// read by name, so a column Core adds cannot shift what is read here.
enum RowCodec {
  /// The SELECT list for each entity (``SyncedColumns/selected``): the id first, the stamps last.
  static func columns(_ entity: SyncedEntity) -> String {
    let map = entity.columns
    return map.selected.map(map.read).joined(separator: ", ")
  }

  /// Decodes a row selected with ``columns(_:)``: each field found by its name, never by position.
  static func decode(_ entity: SyncedEntity, _ row: Row) -> RowChange {
    let map = entity.columns
    let named = fieldValues(entity, row)
    assert(Set(named.keys) == Set(entity.fields), "RowCodec does not decode every synced field")
    return RowChange(
      entity: entity, id: row[map.position(of: map.id)],
      values: entity.fields.map { named[$0] ?? .null },
      stamps: FieldStamps(decoding: row[map.position(of: map.stamps)], count: entity.fields.count))
  }

  /// The value of each field of a row selected with ``columns(_:)``, by field name
  /// (``SyncedEntity/fields``); its columns are found by name in ``SyncedColumns``.
  static func fieldValues(_ entity: SyncedEntity, _ row: Row) -> [String: FieldValue] {
    let map = entity.columns
    func column(_ name: String) -> Int32 { map.position(of: name) }
    func text(_ name: String) -> FieldValue {
      (row[column(name)] as String?).map(FieldValue.text) ?? .null
    }
    func flag(_ name: String) -> FieldValue { .flag(row[column(name)]) }
    switch entity {
    case .entry:
      let tags: String = row[column("tags")]
      return [
        "activity": .text(row[column("activity")]),
        "at": .time(
          LoggedTime(instant: row[column("at")], offsetMinutes: row[column("tz_offset")])),
        "duration": (row[column("duration")] as Int64?).map(FieldValue.integer) ?? .null,
        "note": text("note"),
        "quantity": (row[column("quantity")] as Double?).map(FieldValue.real) ?? .null,
        "tags": .tags(tags.isEmpty ? [] : tags.split(separator: " ").map(String.init)),
        "source": text("source"), "deleted": flag("deleted"),
      ]
    case .activity:
      return [
        "name": .text(row[column("name")]), "kind": .text(row[column("kind")]),
        "unit": text("unit"), "target": text("target"), "archived": flag("archived"),
        "deleted": flag("deleted"),
      ]
    case .setting:
      return ["value": .text(row[column("value")])]
    }
  }

  /// The row as it is stored now, if it exists.
  static func read(_ entity: SyncedEntity, id: String, in database: Database) throws -> RowChange? {
    try database.cachedStatement(
      sql: "SELECT \(columns(entity)) FROM \(entity.table) WHERE \(entity.idMatch())"
    ).first([id]) { decode(entity, $0) }
  }

  /// Inserts or replaces a whole row.
  static func write(_ change: RowChange, in database: Database) throws {
    guard let values = try columnValues(change, in: database) else { return }
    let map = change.entity.columns
    let written = Array(map.selected.dropFirst()) + map.derived  // all but the id
    try database.execute(
      sql: upserts[change.entity] ?? upsert(change.entity),
      arguments: [change.id]
        + written.map { name in
          name == map.stamps ? change.stamps.encoded : values[name] ?? String?.none
        })
  }

  /// The value of each column ``write(_:in:)`` stores but the id and the stamps, by column name
  /// (the synced columns and the derived ones of ``SyncedColumns``); nil for an entry without a
  /// time, which is not written.
  static func columnValues(
    _ change: RowChange, in database: Database
  ) throws -> [String: any SQLiteBindable]? {
    let positions = fieldPositions[change.entity] ?? [:]
    /// The value of a field, found by its name (``SyncedEntity/fields``), never by position.
    func v(_ field: String) -> FieldValue {
      guard let index = positions[field], index < change.values.count else { return .null }
      return change.values[index]
    }
    switch change.entity {
    case .entry:
      guard case .time(let time) = v("at") else { return nil }
      var tags: [String] = []
      if case .tags(let list) = v("tags") { tags = list }
      return [
        "activity": try LogStore.activityKey(for: text(v("activity")) ?? "", in: database),
        "at": time.instant, "tz_offset": time.offsetMinutes,
        "duration": integer(v("duration")).map { max(0, $0) }, "note": text(v("note")),
        "quantity": real(v("quantity")), "tags": tags.joined(separator: " "),
        "source": text(v("source")), "deleted": flag(v("deleted")),
      ]
    case .activity:
      let name = text(v("name")) ?? ""
      let kind = ActivityKind(rawValue: text(v("kind")) ?? "") ?? .other
      return [
        "name": name, "name_key": ActivityName.key(name), "kind": kind.rawValue,
        "unit": text(v("unit")), "target": text(v("target")), "archived": flag(v("archived")),
        "deleted": flag(v("deleted")),
      ]
    case .setting:
      return ["value": text(v("value")) ?? ""]
    }
  }

  /// Where each field of each entity is in ``RowChange/values``, built once.
  private static let fieldPositions = Dictionary(
    uniqueKeysWithValues: SyncedEntity.allCases.map { entity in
      (entity, Dictionary(uniqueKeysWithValues: entity.fields.enumerated().map { ($1, $0) }))
    })

  /// ``upsert(_:)`` of each entity, built once.
  private static let upserts = Dictionary(
    uniqueKeysWithValues: SyncedEntity.allCases.map { ($0, upsert($0)) })

  /// `INSERT … ON CONFLICT DO UPDATE` of every column of the entity's table, in the order
  /// ``write(_:in:)`` binds them: the id, the synced columns after it, the derived ones.
  static func upsert(_ entity: SyncedEntity) -> String {
    let map = entity.columns
    let written = Array(map.selected.dropFirst()) + map.derived
    let all = [map.id] + written
    return """
      INSERT INTO \(entity.table) (\(all.joined(separator: ", ")))
      VALUES (\(all.map(map.write).joined(separator: ", ")))
      ON CONFLICT (\(map.id)) DO UPDATE SET \(
        written.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
      """
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

  /// The fields of `existing` written on this machine (stamp device part `here`) whose value a
  /// later `incoming` write replaces with a different one: the edits a merge drops.
  static func replacedLocalFields(
    _ incoming: RowChange, existing: RowChange, here: String
  ) -> [(index: Int, field: String)] {
    let fields = incoming.entity.fields
    return incoming.values.indices.compactMap { index in
      let local = existing.stamps[index]
      guard index < fields.count, index < existing.values.count, local != Stamp.never,
        local.hasSuffix(here), incoming.stamps[index] > local,
        incoming.values[index] != existing.values[index]
      else { return nil }
      return (index, fields[index])
    }
  }

  /// A value as a person reads it: text as is, a time in ISO 8601, tags space-separated, none empty.
  static func shown(_ value: FieldValue) -> String {
    switch value {
    case .null: ""
    case .text(let text): text
    case .integer(let number): String(number)
    case .real(let number): String(number)
    case .flag(let flag): flag ? "yes" : "no"
    case .time(let time): time.iso8601
    case .tags(let tags): tags.joined(separator: " ")
    }
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
