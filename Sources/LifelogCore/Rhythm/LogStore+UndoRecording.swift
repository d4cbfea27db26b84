import LifelogSQLite

/// One local change `lifelog undo` can revert.
public struct UndoStep: Hashable, Sendable {
  public let seq: Int64
  /// When it was made, milliseconds since 1970 (this device's clock).
  public let atMilliseconds: Int64
  /// What the command did, as it said it (`add breakfast 1a2b3c4d`).
  public let description: String
  /// How many rows it changed or created.
  public let rowCount: Int
}

/// Undo, recording side: a command that writes runs its transaction through
/// ``LogStore/recordingUndoStep(_:_:)``, and the rows it changes are captured by temporary
/// triggers (this connection only) in the same transaction, before each write, so every write
/// path is covered without each one having to say what it changed.
///
/// Sync merges and anything else written outside such a step are not recorded: `undo` only ever
/// reverts what this machine's own commands did.
extension LogStore {
  /// How many steps the log keeps; older ones are dropped as new ones are recorded.
  public static let keptUndoSteps = 100
  /// The longest description kept (a command line can be long).
  static let undoDescriptionLimit = 200

  /// Runs `body` in one write transaction and records what it changed as one undo step, described
  /// by `describe(result)`.
  ///
  /// A body that changes nothing records nothing.
  public func recordingUndoStep<T>(_ describe: (T) -> String, _ body: () throws -> T) throws -> T {
    try write {
      try installUndoCapture()
      try database.execute(
        sql:
          "DELETE FROM temp.undo_capture; UPDATE temp.undo_state SET recording = 1, bulk_stamp = NULL"
      )
      let result = try body()
      try database.execute(sql: "UPDATE temp.undo_state SET recording = 0")
      try saveUndoStep(String(describe(result).prefix(LogStore.undoDescriptionLimit)))
      return result
    }
  }

  /// Tells the recording step that the rows now inserted with `stamp` are one bulk creation (an
  /// import): they are counted by their shared stamp instead of being kept one by one, and entry
  /// inserts are no longer captured in this step (every one carries that stamp).
  func noteBulkCreation(stamp: String) throws {
    let recording =
      try database.cachedStatement(
        sql: "SELECT 1 FROM temp.sqlite_master WHERE name = 'undo_state'"
      ).first { _ in
        true
      } ?? false
    guard recording else { return }
    try database.execute(
      sql: "UPDATE temp.undo_state SET bulk_stamp = ? WHERE recording = 1", arguments: [stamp])
    guard database.changes > 0 else { return }
    // Without this, every insert of the import fires the trigger, and a statement that fires a
    // trigger writes a statement journal (a temporary file): on 100,000 rows 1.3 s of system
    // time against 0.1 s, the import twice as slow. The next recorded step creates it again.
    try database.execute(sql: "DROP TRIGGER IF EXISTS temp.undo_entry_insert")
  }

  /// Creates the temporary capture table and triggers, once per connection.
  private func installUndoCapture() throws {
    var sql = """
      CREATE TEMP TABLE IF NOT EXISTS undo_state (
        singleton INTEGER PRIMARY KEY NOT NULL, recording INTEGER NOT NULL, bulk_stamp TEXT);
      INSERT OR IGNORE INTO temp.undo_state VALUES (1, 0, NULL);
      CREATE TEMP TABLE IF NOT EXISTS undo_capture (
        entity TEXT NOT NULL, id TEXT NOT NULL, before TEXT, before_stamps TEXT NOT NULL,
        PRIMARY KEY (entity, id));
      """
    for entity in SyncedEntity.allCases {
      let table = entity.table
      let key = entity.idColumn
      // An insert may meet an existing row (an upsert of a setting, an import's DO NOTHING):
      // it then keeps that row as it was; NULL means the row did not exist. The first capture of
      // a row wins (NOT EXISTS, not OR IGNORE: an outer upsert's conflict policy would override it).
      sql += """
        CREATE TEMP TRIGGER IF NOT EXISTS undo_\(table)_update BEFORE UPDATE ON main.\(table)
        WHEN (SELECT recording FROM undo_state) = 1
        BEGIN
          INSERT INTO undo_capture SELECT
            '\(entity.rawValue)', OLD.\(key), \(UndoColumns.jsonArray(entity, prefix: "OLD.")), OLD.stamps
          WHERE NOT EXISTS (SELECT 1 FROM undo_capture WHERE entity = '\(entity.rawValue)' AND id = OLD.\(key));
        END;
        CREATE TEMP TRIGGER IF NOT EXISTS undo_\(table)_insert BEFORE INSERT ON main.\(table)
        WHEN (SELECT recording FROM undo_state) = 1
        BEGIN
          INSERT INTO undo_capture SELECT '\(entity.rawValue)', NEW.\(key),
            (SELECT \(UndoColumns.jsonArray(entity, prefix: "")) FROM \(table) WHERE \(key) = NEW.\(key)),
            coalesce((SELECT stamps FROM \(table) WHERE \(key) = NEW.\(key)), '')
          WHERE NOT EXISTS (SELECT 1 FROM undo_capture WHERE entity = '\(entity.rawValue)' AND id = NEW.\(key));
        END;

        """
    }
    try database.execute(sql: sql)
  }

  /// Turns the captured rows into a step: for each, the fields whose stamps the body changed.
  private func saveUndoStep(_ description: String) throws {
    var rows: [UndoRowRecord] = []
    try database.cachedStatement(
      sql: "SELECT entity, id, before, before_stamps FROM temp.undo_capture"
    )
    .forEachRow { row in
      guard let entity = SyncedEntity(rawValue: row[0]) else { return }
      rows.append(
        UndoRowRecord(
          entity: entity, id: row[1], created: row.isNull(2), fields: [], before: row[2],
          beforeStamps: row[3], afterStamps: ""))
    }
    var kept: [UndoRowRecord] = []
    for var record in rows {
      guard let after = try currentStamps(record.entity, id: record.id) else { continue }
      let count = record.entity.fields.count
      let old = FieldStamps(decoding: record.beforeStamps, count: count)
      let new = FieldStamps(decoding: after, count: count)
      record.fields = (0..<count).filter { record.created || old[$0] != new[$0] }
      record.afterStamps = after
      if !record.fields.isEmpty { kept.append(record) }
    }
    // Typed on purpose: read as a `String`, a NULL would come back as "" and every step would
    // count the entries stamped "" (a scan of the whole table: 60 ms per `add` on 100,000 entries).
    let bulkStamp: String? =
      try database.cachedStatement(
        sql: "SELECT bulk_stamp FROM temp.undo_state WHERE bulk_stamp IS NOT NULL"
      )
      .first { (row: Row) -> String in row[0] }
    let bulkCount: Int =
      try bulkStamp.map { stamp in
        try database.cachedStatement(sql: "SELECT count(*) FROM entry WHERE stamps = ?").first([
          stamp
        ]) { $0[0] } ?? 0
      } ?? 0
    guard !kept.isEmpty || bulkCount > 0 else { return }
    try database.execute(
      sql:
        "INSERT INTO local_undo_step (at_ms, description, bulk_entity, bulk_stamp, bulk_count) VALUES (?, ?, ?, ?, ?)",
      arguments: [
        wallClockMilliseconds(), description, bulkCount > 0 ? SyncedEntity.entry.rawValue : nil,
        bulkCount > 0 ? bulkStamp : nil, bulkCount,
      ])
    let step: Int64 =
      try database.cachedStatement(sql: "SELECT last_insert_rowid()").first { $0[0] } ?? 0
    let insert = try database.cachedStatement(
      sql: """
        INSERT INTO local_undo_row (step, entity, id, created, fields, before, before_stamps, after_stamps)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """)
    for record in kept {
      try insert.execute([
        step, record.entity.rawValue, record.id, record.created,
        record.fields.map(String.init).joined(separator: ","), record.before, record.beforeStamps,
        record.afterStamps,
      ])
    }
    let oldest = step - Int64(LogStore.keptUndoSteps)
    try database.execute(sql: "DELETE FROM local_undo_row WHERE step <= ?", arguments: [oldest])
    try database.execute(sql: "DELETE FROM local_undo_step WHERE seq <= ?", arguments: [oldest])
  }

  /// The stored field stamps of one row, nil when it does not exist.
  func currentStamps(_ entity: SyncedEntity, id: String) throws -> String? {
    try database.cachedStatement(
      sql: "SELECT stamps FROM \(entity.table) WHERE \(entity.idColumn) = ?"
    ).first([id]) {
      $0[0]
    }
  }
}

/// One row of an undo step, as stored in `local_undo_row`.
struct UndoRowRecord {
  let entity: SyncedEntity
  let id: String
  /// The step created the row; undoing deletes it (entries, activities) or resets it (settings).
  let created: Bool
  /// The indices (in ``SyncedEntity/fields``) of the fields the step wrote.
  var fields: [Int]
  /// The row's columns before the step, as ``UndoColumns/jsonArray(_:prefix:)``; nil if created.
  let before: String?
  let beforeStamps: String
  var afterStamps: String
}
