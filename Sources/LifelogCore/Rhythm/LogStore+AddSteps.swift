import LifelogSQLite

/// Undo steps kept in entry rows (schema v8, ``AddStepMigration``): a command whose whole step is
/// "this entry was added" (`add`, `again`) keeps the step in the entry's own row, on the page
/// its insert wrote, instead of a `local_undo_step` row on a page of its own.
///
/// Such steps are always the newest: every other write that records a step, reverts one, merges
/// rows from elsewhere or recovers the log moves them into `local_undo_step` first
/// (``moveEntryStepsToTable()``). So the steps are the ones in entries past the mark
/// (``entryStepMark()``), newest last, followed in age by the table's.
extension LogStore {
  /// The highest entry rowid whose step, if it had one, is in `local_undo_step`: the later of
  /// the device row's and the newest step row's (each written by whatever moved it last).
  static let entryStepMarkSQL = """
    max(coalesce((SELECT undo_entry_rowid FROM sync_device), 0),
      coalesce((SELECT entry_rowid FROM local_undo_step ORDER BY seq DESC LIMIT 1), 0))
    """

  /// True for an entry whose `add_step` is a step lifelog can read (seq, time and description
  /// of the right types); NULL or false for every other, including text that is not JSON
  /// (written by hand), which is never read further and never the reason a command fails.
  static let validEntryStepSQL = """
    CASE WHEN json_valid(add_step) THEN json_type(add_step, '$[0]') = 'integer'
      AND json_type(add_step, '$[1]') = 'integer' AND json_type(add_step, '$[2]') = 'text' END
    """

  /// See ``entryStepMarkSQL``; 0 before schema v8.
  func entryStepMark() throws -> Int64 {
    guard hasAddStepInEntry else { return 0 }
    return try database.cachedStatement(sql: "SELECT " + LogStore.entryStepMarkSQL).first {
      $0[0] as Int64
    } ?? 0
  }

  /// The steps kept in entries, newest first, at most `limit`.
  func entrySteps(limit: Int) throws -> [UndoStep] {
    guard hasAddStepInEntry, limit > 0 else { return [] }
    return try database.cachedStatement(
      sql: """
        SELECT json_extract(add_step, '$[0]'), json_extract(add_step, '$[1]'),
          json_extract(add_step, '$[2]')
        FROM entry WHERE rowid > ? AND \(LogStore.validEntryStepSQL) ORDER BY rowid DESC LIMIT ?
        """
    ).map([try entryStepMark(), limit]) {
      UndoStep(seq: $0[0], atMilliseconds: $0[1], description: $0[2], rowCount: 1)
    }
  }

  /// The newest step kept in an entry: its seq and the clock its stamps were taken from.
  func newestEntryStep() throws -> (seq: Int64, clock: HybridClock?)? {
    guard hasAddStepInEntry else { return nil }
    return try database.cachedStatement(
      sql: """
        SELECT json_extract(add_step, '$[0]'),
          CASE WHEN json_type(add_step, '$[3]') = 'integer' AND json_type(add_step, '$[4]') = 'integer'
            THEN json_extract(add_step, '$[3]') END,
          json_extract(add_step, '$[4]')
        FROM entry WHERE rowid > ? AND \(LogStore.validEntryStepSQL) ORDER BY rowid DESC LIMIT 1
        """
    ).first([try entryStepMark()]) { row in
      (
        seq: row[0] as Int64,
        clock: row.isNull(1)
          ? nil : HybridClock(milliseconds: row[1], counter: Int(clamping: row[2] as Int64))
      )
    }
  }

  /// The seq the next step takes: one past the newest, kept in an entry or in the table.
  func nextStepSeq() throws -> Int64 {
    let inTable: Int64 =
      try database.cachedStatement(sql: "SELECT coalesce(max(seq), 0) FROM local_undo_step")
      .first { $0[0] } ?? 0
    let newest = max(inTable, try newestEntryStep()?.seq ?? 0)
    return newest < Int64.max ? newest + 1 : newest
  }

  /// The rowid of the entry that can keep the step `rows` make, nil when the step is a table row.
  ///
  /// Only a step that is one created entry, the newest and past the mark, is kept in an entry.
  func entryKeepingStep(_ rows: [UndoRowRecord], bulk: Bool) throws -> Int64? {
    guard hasAddStepInEntry, !bulk, rows.count == 1, let row = rows.first, row.entity == .entry,
      row.created
    else { return nil }
    let rowID: Int64? = try database.cachedStatement(
      sql: "SELECT rowid FROM entry WHERE \(SyncedEntity.entry.idMatch())"
    ).first([row.id]) { $0[0] }
    guard let rowID, rowID == (try lastEntryRowID()), rowID > (try entryStepMark()) else {
      return nil
    }
    return rowID
  }

  /// Records an add's step in its entry's row.
  ///
  /// As `[seq, at_ms, description, clock_ms, clock_counter, stamps]`. The row was written by the
  /// insert in this transaction, so no other page is.
  func saveStepInEntry(_ row: UndoRowRecord, rowID: Int64, description: String) throws {
    let seq = try nextStepSeq()
    try database.execute(
      sql: "UPDATE entry SET add_step = json_array(?, ?, ?, ?, ?, ?) WHERE rowid = ?",
      arguments: [
        seq, wallClockMilliseconds(), description, stepClock?.milliseconds, stepClock?.counter,
        row.afterStamps, rowID,
      ])
    pendingWriteMark = .stepRecorded(seq: seq, description: description)
    if seq % LogStore.undoTrimInterval == 0 { try trimUndoSteps(below: seq) }
  }

  /// Moves the steps kept in entries into `local_undo_step` rows (the kept number of them; older
  /// ones are dropped, as they would be from the table) and clears them from the entries.
  ///
  /// Each becomes the row the table would have held for it: the entry, created, every field,
  /// the stamps the add gave it. Call inside a write transaction, before anything that moves
  /// the mark past them.
  func moveEntryStepsToTable() throws {
    guard hasAddStepInEntry else { return }
    let mark = try entryStepMark()
    guard try lastEntryRowID() > mark else { return }
    let oldestKept = try nextStepSeq() - 1 - Int64(LogStore.keptUndoSteps)
    let fields = (0..<SyncedEntity.entry.fields.count).map(String.init).joined(separator: ",")
    try database.execute(
      sql: """
        INSERT OR IGNORE INTO local_undo_step
          (seq, at_ms, description, bulk_count, rows, clock_ms, clock_counter, entry_rowid)
        SELECT json_extract(add_step, '$[0]'), json_extract(add_step, '$[1]'),
          json_extract(add_step, '$[2]'), 0,
          json_array(json_array(?4, hex(\(StoredEntryID.text(of: "id"))), 1, ?2, NULL, '',
            coalesce(json_extract(add_step, '$[5]'), ''))),
          CASE WHEN json_type(add_step, '$[3]') = 'integer' AND json_type(add_step, '$[4]') = 'integer'
            THEN json_extract(add_step, '$[3]') END,
          CASE WHEN json_type(add_step, '$[3]') = 'integer' AND json_type(add_step, '$[4]') = 'integer'
            THEN json_extract(add_step, '$[4]') END,
          rowid
        FROM entry
        WHERE rowid > ?1 AND \(LogStore.validEntryStepSQL)
          AND CASE WHEN json_valid(add_step) THEN json_extract(add_step, '$[0]') END > ?3
        ORDER BY rowid
        """, arguments: [mark, fields, oldestKept, SyncedEntity.entry.rawValue])
    try database.execute(
      sql: "UPDATE entry SET add_step = NULL WHERE rowid > ? AND add_step IS NOT NULL",
      arguments: [mark])
  }

  /// Moves the mark past every entry now in the log, so none is looked at for a step: after
  /// ``moveEntryStepsToTable()``, by a write that records no step row of its own.
  func markEntryStepsMoved() throws {
    guard hasAddStepInEntry else { return }
    try database.execute(
      sql: "UPDATE sync_device SET undo_entry_rowid = (SELECT coalesce(max(rowid), 0) FROM entry)")
  }
}
