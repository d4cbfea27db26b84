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
  /// Once undone: the entries it put back to an earlier state (not the ones it removed), so
  /// `undo` can show the state it restored rather than the one it left.
  public var restoredEntryIDs: [String] = []
}

/// Undo, recording side: a command that writes runs its transaction through
/// ``LogStore/recordingUndoStep(_:_:)``, and the rows it changes are captured by SQLite's
/// pre-update hook on this connection (``RowChangeCapture``), before each write, so every write
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
    let capture =
      undoCapture
      ?? RowChangeCapture(database: database, tables: Set(SyncedEntity.allCases.map(\.table)))
    undoCapture = capture
    return try write {
      capture.start()
      undoBulkStamp = nil
      stepClock = nil
      stepBase = nil
      defer {
        capture.stop()
        stepClock = nil
        stepBase = nil
      }
      let result = try body()
      capture.stop()
      try saveUndoStep(String(describe(result).prefix(LogStore.undoDescriptionLimit)), capture)
      return result
    }
  }

  /// Tells the recording step that the rows now inserted with `stamp` are one bulk creation (an
  /// import): they are counted by their shared stamp instead of being kept one by one, and entry
  /// inserts are no longer captured in this step (every one carries that stamp).
  package func noteBulkCreation(stamp: String) throws {
    guard let capture = undoCapture, capture.isRecording else { return }
    undoBulkStamp = stamp
    capture.ignoredInserts.insert(SyncedEntity.entry.table)
  }

  /// Turns the captured rows into a step: for each, the fields whose stamps the body changed.
  private func saveUndoStep(_ description: String, _ capture: RowChangeCapture) throws {
    var rows: [UndoRowRecord] = []
    for change in capture.changes {
      guard let entity = SyncedEntity(rawValue: change.table) else { continue }
      var before: String?
      var beforeStamps = ""
      if !change.before.isEmpty {
        let columns = try undoColumnPositions(entity)
        before =
          try database.cachedStatement(
            sql: "SELECT " + UndoColumns.jsonArray(placeholders: columns.flat.count)
          ).first(columns.flat.map { change.before[$0] }) { (row: Row) -> String in row[0] }
        beforeStamps = change.before[columns.stamps].text ?? ""
      }
      rows.append(
        UndoRowRecord(
          entity: entity, id: StoredEntryID.text(of: change.key), created: before == nil,
          fields: [], before: before,
          beforeStamps: beforeStamps, afterStamps: ""))
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
    let bulkStamp = undoBulkStamp
    let bulkCount: Int =
      try bulkStamp.map { stamp in
        try database.cachedStatement(sql: "SELECT count(*) FROM entry WHERE stamps = ?").first([
          stamp
        ]) { $0[0] } ?? 0
      } ?? 0
    guard !kept.isEmpty || bulkCount > 0 else {
      if let stepClock { try saveClock(stepClock) }
      return
    }
    if try savedStepInEntry(kept, bulk: bulkCount > 0, description: description) { return }
    // The row takes one past the newest seq, which must leave room above it.
    try keepStepSeqsInRange()
    try moveEntryStepsToTable()
    // At schema v8 the step also marks the entries it leaves behind (``entryStepMark()``).
    let entryRowID = hasAddStepInEntry ? try lastEntryRowID() : nil
    try database.execute(
      sql: """
        INSERT INTO local_undo_step (at_ms, description, bulk_entity, bulk_stamp, bulk_count, rows, clock_ms, clock_counter\(entryRowID == nil ? "" : ", entry_rowid"))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?\(entryRowID == nil ? "" : ", ?"))
        """,
      arguments: [
        wallClockMilliseconds(), description, bulkCount > 0 ? SyncedEntity.entry.rawValue : nil,
        bulkCount > 0 ? bulkStamp : nil, bulkCount, try UndoRowRecord.encoded(kept, in: database),
        stepClock?.milliseconds, stepClock?.counter,
      ] + (entryRowID.map { [$0] } ?? []))
    let step = database.lastInsertedRowID
    pendingWriteMark = .stepRecorded(seq: step, description: description)
    if step % LogStore.undoTrimInterval == 0 { try trimUndoSteps(below: step) }
  }

  /// Steps past the kept ones are deleted in batches, once every this many steps.
  ///
  /// A delete at the old end of the steps writes a page more to the WAL, which every step would
  /// pay. Until then they sit unseen: ``undoSteps(limit:)`` lists at most the kept
  /// number, newest first, and ``undoLastStep()`` trims to the kept ones before it reverts.
  static let undoTrimInterval: Int64 = 32

  /// Deletes the steps more than ``keptUndoSteps`` older than step `newest` (each holds its rows).
  func trimUndoSteps(below newest: Int64) throws {
    let oldest = newest - Int64(LogStore.keptUndoSteps)
    try database.execute(sql: "DELETE FROM local_undo_step WHERE seq <= ?", arguments: [oldest])
  }

  /// Where, in a row as SQLite's pre-update hook gives it, each of ``UndoColumns/flat(_:)`` and
  /// the `stamps` column is (from the table's declared columns).
  private func undoColumnPositions(_ entity: SyncedEntity) throws -> (flat: [Int], stamps: Int) {
    var names: [String] = []
    try database.cachedStatement(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid")
      .forEachRow([entity.table]) { row in names.append(row[0]) }
    let flat = UndoColumns.flat(entity).compactMap { names.firstIndex(of: $0) }
    guard flat.count == UndoColumns.flat(entity).count, let stamps = names.firstIndex(of: "stamps")
    else {
      throw StoreError.notADatabase(
        path: path, reason: "table \(entity.table) lacks a column undo keeps")
    }
    return (flat, stamps)
  }

  /// The stored field stamps of one row, nil when it does not exist.
  func currentStamps(_ entity: SyncedEntity, id: String) throws -> String? {
    try database.cachedStatement(
      sql: "SELECT stamps FROM \(entity.table) WHERE \(entity.idMatch())"
    ).first([id]) {
      $0[0]
    }
  }
}

/// One row of an undo step, as kept in its step's `rows` column.
///
/// A JSON array of `[entity, hex(id), created, fields, before, before_stamps, after_stamps]`. The
/// id is kept as
/// the hex digits of its UTF-8 bytes: SQLite's `json_extract` ends a string at a NUL, which a
/// text id from another device may hold.
struct UndoRowRecord {
  let entity: SyncedEntity
  let id: String
  /// The step created the row; undoing deletes it (entries, activities) or resets it (settings).
  let created: Bool
  /// The indices (in ``SyncedEntity/fields``) of the fields the step wrote.
  var fields: [Int]
  /// The row's columns before the step, as ``UndoColumns/jsonArray(placeholders:)``; nil if created.
  let before: String?
  let beforeStamps: String
  var afterStamps: String
}

extension UndoRowRecord {
  /// The step's `rows` text for `records`, each made by SQLite's `json_array` (values bound as
  /// they are, so any text round-trips).
  static func encoded(_ records: [UndoRowRecord], in database: Database) throws -> String {
    let array = try database.cachedStatement(sql: "SELECT json_array(?, hex(?), ?, ?, ?, ?, ?)")
    var elements: [String] = []
    for record in records {
      let element: String? = try array.first([
        record.entity.rawValue, record.id, record.created,
        record.fields.map(String.init).joinedText(separator: ","), record.before,
        record.beforeStamps,
        record.afterStamps,
      ]) { $0[0] }
      elements.append(element ?? "null")
    }
    return "[" + elements.joinedText(separator: ",") + "]"
  }

  /// The text whose UTF-8 bytes `hex` spells (as SQLite's `hex()` writes them), nil for anything
  /// else.
  static func text(ofHex hex: String) -> String? {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case 48...57: digit - 48
    case 65...70: digit - 55
    case 97...102: digit - 87
    default: nil
    }
  }

  /// The records of one step's `rows`, in recorded order; a malformed `rows` (written by hand) is
  /// an error, never a trap.
  static func decoded(_ rows: String, in database: Database) throws -> [UndoRowRecord] {
    try database.cachedStatement(
      sql: """
        SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
          json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'),
          json_extract(value, '$[6]')
        FROM json_each(?) ORDER BY key
        """
    ).map([rows]) { row -> UndoRowRecord? in
      guard let entityName = row[0] as String?, let entity = SyncedEntity(rawValue: entityName),
        let hexID = row[1] as String?, let id = UndoRowRecord.text(ofHex: hexID)
      else { return nil }
      let fieldText: String = row[3] as String? ?? ""
      let count = entity.fields.count
      return UndoRowRecord(
        entity: entity, id: id, created: (row[2] as Int64? ?? 0) != 0,
        fields: fieldText.split(separator: ",").compactMap { Int($0) }.filter {
          (0..<count).contains($0)
        },
        before: row[4], beforeStamps: row[5] as String? ?? "", afterStamps: row[6] as String? ?? "")
    }.compactMap { $0 }
  }
}
