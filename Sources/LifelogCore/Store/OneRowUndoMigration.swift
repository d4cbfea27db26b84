/// Schema v7: an `add` writes the entry, its three indexes and one undo row, nothing else.
///
/// - Each undo step is one row of `local_undo_step`: the rows it changed move from
///   `local_undo_row` (a table and two indexes: three pages written per step) into the step's
///   `rows` column, a JSON array of `[entity, hex(id), created, fields, before, before_stamps,
///   after_stamps]` arrays (``UndoRowRecord``) in the order they were recorded. At most about 130 steps are kept, so
///   finding an earlier step that touched a row is a scan of them, which only `undo` makes.
/// - The hybrid clock a step's stamps were taken from is kept in the step's own row
///   (`clock_ms`, `clock_counter`) instead of being written to `sync_device` as well: the clock
///   is the later of `sync_device`'s and the newest step's (``LogStore/clock()``).
/// - Entries inserted on this machine are queued by position, not one queue row each:
///   `sync_device.queued_entry_rowid` is the highest `entry` rowid already queued or sent, so
///   every entry past it is pending (``LogStore/queuedEntryRowID()``). A merge queues the local
///   entries past it and moves it past the rows it merged, in its own transaction.
enum OneRowUndoMigration {
  /// The script, run as one migration (``Migration/init(identifier:sql:compactsAfterward:)``).
  static let sql = """
    ALTER TABLE local_undo_step ADD COLUMN rows TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE local_undo_step ADD COLUMN clock_ms INTEGER;
    ALTER TABLE local_undo_step ADD COLUMN clock_counter INTEGER;
    UPDATE local_undo_step SET rows = coalesce((
      SELECT json_group_array(json_array(entity, hex(id), created, fields, before, before_stamps, after_stamps))
      FROM (SELECT * FROM local_undo_row r WHERE r.step = local_undo_step.seq ORDER BY r.rowid)
    ), '[]');
    DROP TABLE local_undo_row;
    ALTER TABLE sync_device ADD COLUMN queued_entry_rowid INTEGER NOT NULL DEFAULT 0;
    UPDATE sync_device SET queued_entry_rowid = (SELECT coalesce(max(rowid), 0) FROM entry);
    """
}
