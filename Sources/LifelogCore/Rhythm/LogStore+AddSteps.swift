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

  /// The seq the next step takes: one past the newest, kept in an entry or in the table.
  func nextStepSeq() throws -> Int64 {
    let inTable: Int64 =
      try database.cachedStatement(sql: "SELECT coalesce(max(seq), 0) FROM local_undo_step")
      .first { $0[0] } ?? 0
    let inEntry: Int64? =
      hasAddStepInEntry
      ? try database.cachedStatement(sql: LogStore.newestEntryStepSeqSQL).first { $0[0] } : nil
    let newest = max(inTable, inEntry ?? 0)
    return newest < Int64.max ? newest + 1 : newest
  }

  /// The seq of the newest step kept in an entry, as SQL (NULL when there is none).
  static let newestEntryStepSeqSQL = """
    SELECT json_extract(add_step, '$[0]') FROM entry
    WHERE rowid > \(entryStepMarkSQL) AND \(validEntryStepSQL) ORDER BY rowid DESC LIMIT 1
    """

  /// Records the step `rows` make in the row of the entry they created, when they are that one
  /// created entry, the newest and past the mark; false, with nothing written, otherwise (the
  /// step is then a table row).
  ///
  /// As `[seq, at_ms, description, clock_ms, clock_counter, stamps]`, with the seq one past the
  /// newest step: the table's, or the one kept in the entry before (steps kept in entries are
  /// always the newest entries: every other insert of entries moves them to the table first).
  /// The seq comes from what ``clock()`` read before the step inserted anything
  /// (``EntryStepBase``), so the statement is a plain update, cheap to prepare on every `add`.
  /// The row was written by the insert in this transaction, so no other page is.
  func savedStepInEntry(_ rows: [UndoRowRecord], bulk: Bool, description: String) throws -> Bool {
    guard hasAddStepInEntry, !bulk, rows.count == 1, let row = rows.first, row.entity == .entry,
      row.created, let base = stepBase, let seq = base.nextSeq
    else { return false }
    // The entry is the newest and the only one this step inserted: past the newest entry the
    // step's first clock read saw, and past the mark then.
    try database.execute(
      sql: """
        UPDATE entry SET add_step = json_array(?1, ?2, ?3, ?4, ?5, ?6)
        WHERE rowid = (SELECT max(rowid) FROM entry) AND rowid > ?7 AND \(SyncedEntity.entry.idMatch("?8"))
        """,
      arguments: [
        seq, wallClockMilliseconds(), description, stepClock?.milliseconds, stepClock?.counter,
        row.afterStamps, max(base.mark, base.newestEntryRowID), row.id,
      ])
    guard database.changes == 1 else { return false }
    pendingWriteMark = .stepRecorded(seq: seq, description: description)
    if seq % LogStore.undoTrimInterval == 0 { try trimUndoSteps(below: seq) }
    return true
  }

  /// Moves the steps kept in entries into `local_undo_step` rows (the kept number of them; older
  /// ones are dropped, as they would be from the table) and clears them from the entries.
  ///
  /// Each becomes the row the table would have held for it: the entry, created, every field,
  /// the stamps the add gave it. Call inside a write transaction, before anything that moves
  /// the mark past them.
  func moveEntryStepsToTable() throws {
    guard hasAddStepInEntry else { return }
    stepBase = nil
    let mark = try entryStepMark()
    guard try lastEntryRowID() > mark else { return }
    // Saturating: a seq written by hand may sit anywhere (``keepStepSeqsInRange()``).
    let oldest = try nextStepSeq().subtractingReportingOverflow(1 + Int64(LogStore.keptUndoSteps))
    let oldestKept = oldest.overflow ? Int64.min : oldest.partialValue
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

  /// Moves the mark to the newest entry now in the log, so none is looked at for a step: after
  /// ``moveEntryStepsToTable()``, by a write that records no step row of its own.
  ///
  /// The mark is set, not only raised: a step row that marks entries the log no longer has (the
  /// newest entries were lost, and `recover` copied the step rows without them) is brought down
  /// to the newest entry too. Above it, the next entry would sit under the mark, and its `add`
  /// would write its step as a row of its own.
  func markEntryStepsMoved() throws {
    guard hasAddStepInEntry else { return }
    stepBase = nil
    try database.execute(
      sql: "UPDATE sync_device SET undo_entry_rowid = (SELECT coalesce(max(rowid), 0) FROM entry)")
    try database.execute(
      sql: """
        UPDATE local_undo_step SET entry_rowid = (SELECT undo_entry_rowid FROM sync_device)
        WHERE entry_rowid > (SELECT undo_entry_rowid FROM sync_device)
        """)
  }

  /// Moves the kept steps to the table and the mark past entries just added outside any step.
  ///
  /// The library's `add` or import called on its own (sample logs, benchmarks, in-process
  /// imports) keeps no step in its entries, so they are treated as a merge's rows are. An entry
  /// without a step must never sit past the mark after one with a step: the next add numbers its
  /// step from the entry before it, and would take a seq already used. Inside a step this does
  /// nothing (the step decides).
  package func markEntriesAddedOutsideAStep() throws {
    guard hasAddStepInEntry, undoCapture?.isRecording != true else { return }
    // A seq past `Int64` (read as a real number) could not become a table row's.
    try keepStepSeqsInRange()
    try moveEntryStepsToTable()
    try markEntryStepsMoved()
  }
}

/// What an add's step kept in its entry needs from before the add inserted anything, read with
/// the clock (``LogStore/clock()``) the step's first stamp is taken from.
struct EntryStepBase {
  /// What the newest entry's `add_step` says of the step kept there.
  enum KeptSeq {
    /// It keeps none (or there is no entry).
    case none
    /// It keeps the step with this seq.
    case seq(Int64)
    /// It holds something lifelog cannot read (written by hand): the next step goes to the table,
    /// and moving the kept steps there clears it.
    case unreadable
  }

  /// The later of `sync_device.undo_entry_rowid` and the newest step row's `entry_rowid`
  /// (``LogStore/entryStepMarkSQL``): entries up to it keep no step.
  let mark: Int64
  /// The newest step row's seq, 0 when there is none.
  let newestTableSeq: Int64
  /// The newest entry's rowid, 0 when there is none.
  let newestEntryRowID: Int64
  let keptSeq: KeptSeq

  /// One past the newest step, in the table or kept in the newest entry; nil when that entry's
  /// step cannot be read or the next seq would pass ``LogStore/largestStepSeq`` (the step then
  /// goes to the table, whose write renumbers the steps first).
  var nextSeq: Int64? {
    let newest: Int64
    switch keptSeq {
    case .none: newest = newestTableSeq
    case .seq(let kept): newest = max(newestTableSeq, kept)
    case .unreadable: return nil
    }
    return newest < LogStore.largestStepSeq ? newest + 1 : nil
  }
}
