import LifelogSQLite

/// The numbers (seqs) of undo steps (schema v7 and later): lifelog gives them 1, 2, … in the
/// order the steps are recorded, and `undo` reverts the highest first.
///
/// Only their order means anything, so a seq outside 1...``largestStepSeq`` (written by hand or
/// by a damaged file) is never worked around: the steps are numbered again from 1 in the order
/// they had (``renumberUndoSteps()``) before a step is recorded, reverted or moved. Near the top
/// of `Int64` the next seq would have nowhere to go: kept in an entry it would be one no listing
/// reads, and in `local_undo_step` SQLite would pick a random free one; either way an older step
/// would be undone first.
extension LogStore {
  /// The largest seq lifelog gives a step: a step a second would reach it in 285 million years,
  /// and every reader of JSON holds it exactly.
  static let largestStepSeq: Int64 = 1 << 53

  /// True when some kept step's seq is outside 1...``largestStepSeq``: a row of
  /// `local_undo_step`, or (schema v8) a step kept in an entry past the mark.
  func stepSeqsOutOfRange() throws -> Bool {
    guard hasOneRowUndo else { return false }
    let inEntries =
      hasAddStepInEntry
      ? """
      OR EXISTS (SELECT 1 FROM entry WHERE rowid > \(LogStore.entryStepMarkSQL)
        AND \(LogStore.validEntryStepSQL)
        AND CASE WHEN json_valid(add_step) THEN json_extract(add_step, '$[0]') NOT BETWEEN 1 AND ?1 END)
      """ : ""
    return try database.cachedStatement(
      sql: """
        SELECT EXISTS (SELECT 1 FROM local_undo_step WHERE seq < 1)
          OR EXISTS (SELECT 1 FROM local_undo_step WHERE seq > ?1) \(inEntries)
        """
    ).first([LogStore.largestStepSeq]) { ($0[0] as Int64) != 0 } ?? false
  }

  /// Renumbers the steps when a seq is out of range (``stepSeqsOutOfRange()``) or the next one
  /// would be (the newest is ``largestStepSeq``: the step recorded next would pass it); call
  /// inside a write transaction, before recording, reverting or moving steps.
  func keepStepSeqsInRange() throws {
    guard try stepSeqsOutOfRange() || nextStepSeq() > LogStore.largestStepSeq else { return }
    try renumberUndoSteps()
  }

  /// Numbers the kept steps 1, 2, … in the order they had: the rows of `local_undo_step` by seq,
  /// then (schema v8) the steps kept in entries past the mark, by rowid (they are the newest).
  ///
  /// The rows are copied out and back rather than updated in place, so no seq can collide with
  /// one not yet renumbered. The mark stays where it was: it is read from the newest row, which
  /// stays the newest. Call inside a write transaction.
  ///
  /// The write then leaves no mark to read back (``stepsRenumbered``): its step is found by its
  /// new seq, which in the log as last saved may be another step's or none.
  func renumberUndoSteps() throws {
    guard hasOneRowUndo else { return }
    stepBase = nil
    stepsRenumbered = true
    let mark = try entryStepMark()
    let columns = try database.makeStatement(
      sql: "SELECT name FROM pragma_table_info('local_undo_step') WHERE name != 'seq' ORDER BY cid"
    ).map { "\"\($0[0] as String)\"" }.joined(separator: ", ")
    try database.execute(
      sql: """
        DROP TABLE IF EXISTS temp.undo_step_renumbered;
        CREATE TEMP TABLE undo_step_renumbered AS
          SELECT row_number() OVER (ORDER BY seq) AS new_seq, \(columns) FROM main.local_undo_step;
        DELETE FROM main.local_undo_step;
        INSERT INTO main.local_undo_step (seq, \(columns))
          SELECT new_seq, \(columns) FROM temp.undo_step_renumbered ORDER BY new_seq;
        DROP TABLE temp.undo_step_renumbered;
        """)
    guard hasAddStepInEntry else { return }
    let inTable: Int64 =
      try database.cachedStatement(sql: "SELECT count(*) FROM local_undo_step").first { $0[0] }
      ?? 0
    try database.execute(
      sql: """
        WITH ranked (entry_rowid, rank) AS (
          SELECT rowid, row_number() OVER (ORDER BY rowid) FROM entry
          WHERE rowid > ?1 AND \(LogStore.validEntryStepSQL))
        UPDATE entry
        SET add_step = json_set(add_step, '$[0]',
          ?2 + (SELECT rank FROM ranked WHERE ranked.entry_rowid = entry.rowid))
        WHERE rowid IN (SELECT entry_rowid FROM ranked)
        """, arguments: [mark, inTable])
  }
}
