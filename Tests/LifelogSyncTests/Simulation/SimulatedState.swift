import LifelogCore
import LifelogSQLite

/// One synced row as the simulation sees it: every field's value rendered as exact text, and
/// every field's stamp.
///
/// Values are rendered so that two of them are equal only when they are bit for bit the same:
/// strings with every scalar outside printable ASCII escaped (Swift's `==` would call canonically
/// equivalent strings equal), doubles in their shortest round-trip form (`-0.0` stays `-0.0`).
struct SimulatedRow: Equatable {
  var values: [String]
  var stamps: [String]
}

/// Reads the synced tables of one device's database straight from SQL, independently of the
/// sync code (it does not use `RowCodec`).
enum SimulatedState {
  /// Rows are keyed `entity/id`.
  static func key(_ entity: SyncedEntity, _ id: String) -> String { entity.rawValue + "/" + id }

  /// Every row of every synced table, deleted ones included.
  static func all(_ database: Database) throws -> [String: SimulatedRow] {
    var rows: [String: SimulatedRow] = [:]
    for entity in SyncedEntity.allCases {
      rows.merge(try table(entity, in: database)) { first, _ in first }
    }
    return rows
  }

  /// Every row of one table.
  static func table(_ entity: SyncedEntity, in database: Database) throws -> [String: SimulatedRow]
  {
    var rows: [String: SimulatedRow] = [:]
    try database.makeStatement(sql: select(entity)).forEachRow { row in
      let (id, decoded) = decode(entity, row)
      rows[key(entity, id)] = decoded
    }
    return rows
  }

  /// One row, if it exists.
  static func row(_ entity: SyncedEntity, id: String, in database: Database) throws -> SimulatedRow?
  {
    try database.cachedStatement(sql: select(entity) + " WHERE \(entity.idMatch())").first([id]) {
      decode(entity, $0).1
    }
  }

  /// Activities whose `name_key` is not the key of their name (the column names are matched on).
  static func nameKeyProblems(_ database: Database) throws -> [String] {
    try database.makeStatement(sql: "SELECT id, name, name_key FROM activity").map {
      row -> String? in
      let name: String = row[1]
      let nameKey: String = row[2]
      return nameKey == ActivityName.key(name)
        ? nil : "activity \(row[0] as String) name_key \(text(nameKey))"
    }.compactMap { $0 }
  }

  private static func select(_ entity: SyncedEntity) -> String {
    switch entity {
    case .entry:
      """
      SELECT lifelog_id_text(id), (SELECT id FROM activity_key WHERE key = activity), at, tz_offset,
        duration, note, quantity, tags, source, deleted, stamps FROM entry
      """
    case .activity: "SELECT id, name, kind, unit, target, archived, deleted, stamps FROM activity"
    case .setting: "SELECT key, value, stamps FROM setting"
    }
  }

  private static func decode(_ entity: SyncedEntity, _ row: Row) -> (String, SimulatedRow) {
    func string(_ index: Int32) -> String { row.isNull(index) ? "null" : text(row[index]) }
    func integer(_ index: Int32) -> String {
      row.isNull(index) ? "null" : String(row[index] as Int64)
    }
    func real(_ index: Int32) -> String {
      row.isNull(index) ? "null" : String(row[index] as Double)
    }
    let values: [String]
    let stampsColumn: Int32
    switch entity {
    case .entry:
      values = [
        string(1), "\(row[2] as Int64)@\(row[3] as Int64)", integer(4), string(5), real(6),
        string(7),
        string(8), integer(9),
      ]
      stampsColumn = 10
    case .activity:
      values = [string(1), string(2), string(3), string(4), integer(5), integer(6)]
      stampsColumn = 7
    case .setting:
      values = [string(1)]
      stampsColumn = 2
    }
    let stamps = FieldStamps(decoding: row[stampsColumn], count: entity.fields.count).stamps
    return (row[0], SimulatedRow(values: values, stamps: stamps))
  }

  /// A string as quoted text that is equal to another only when the scalars are the same.
  static func text(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
      if scalar.value >= 0x20, scalar.value < 0x7F, scalar != "\\", scalar != "\"" {
        result.unicodeScalars.append(scalar)
      } else {
        result += "\\u{" + String(scalar.value, radix: 16) + "}"
      }
    }
    return result + "\""
  }
}

/// The per-field last-writer-wins result, computed from every local write the simulation saw,
/// without the sync engine: for each field, the value written with the largest stamp.
struct SimulationOracle {
  struct Write {
    var stamp: String
    var value: String
  }

  private(set) var rows: [String: [Write?]] = [:]
  /// How many local field writes were recorded.
  private(set) var writes = 0

  /// Starts from the rows every new log has (the default activities, never written: stamp "").
  init(initial: [String: SimulatedRow]) {
    for (key, row) in initial {
      rows[key] = zip(row.stamps, row.values).map { Write(stamp: $0, value: $1) }
    }
  }

  /// Records one field written locally; returns a problem when the same stamp carried two values.
  mutating func record(
    key: String, fieldCount: Int, field: Int, stamp: String, value: String
  ) -> String? {
    writes += 1
    var fields = rows[key] ?? Array(repeating: nil, count: fieldCount)
    defer { rows[key] = fields }
    guard let current = fields[field] else {
      fields[field] = Write(stamp: stamp, value: value)
      return nil
    }
    if stamp > current.stamp {
      fields[field] = Write(stamp: stamp, value: value)
    } else if stamp == current.stamp, value != current.value {
      return
        "\(key) field \(field): stamp \(stamp) was written with two values, \(current.value) and \(value)"
    }
    return nil
  }

  /// The state every device must reach, or the rows some field of which was never written.
  func expected() -> (rows: [String: SimulatedRow], incomplete: [String]) {
    var result: [String: SimulatedRow] = [:]
    var incomplete: [String] = []
    for (key, fields) in rows {
      let written = fields.compactMap { $0 }
      guard written.count == fields.count else {
        incomplete.append(key)
        continue
      }
      result[key] = SimulatedRow(values: written.map(\.value), stamps: written.map(\.stamp))
    }
    return (result, incomplete.sorted())
  }
}
