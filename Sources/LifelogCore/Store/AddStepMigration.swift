/// Schema v8: an `add`'s undo step is kept in its entry's row, so an `add` writes the entry and
/// its three indexes and nothing else (``LogStore/saveStepInEntry(_:rowID:description:)``).
///
/// - `entry.add_step`: for an entry inserted by a command whose whole undo step is "this entry
///   was added", that step as `[seq, at_ms, description, clock_ms, clock_counter, stamps]` (the
///   stamps the add gave the entry); NULL for every other entry. The entry's row is written by
///   the add anyway, on the page the insert dirtied.
/// - Such steps live there only while they are the newest: every other write that records a step,
///   undoes one, merges rows from elsewhere or recovers the log first moves them into
///   `local_undo_step` rows (``LogStore/moveEntryStepsToTable()``), so steps kept in entries are
///   always newer than the ones in the table.
/// - Which entries to look at is told by a mark, like the sync queue's: the highest entry rowid
///   whose step, if it had one, is in the table. It is the later of `sync_device.undo_entry_rowid`
///   (moved by merges, `undo` and `recover`) and the newest step row's `entry_rowid` (the highest
///   entry rowid when it was recorded), so recording a step writes no other row.
enum AddStepMigration {
  /// The script, run as one migration (``Migration/init(identifier:sql:compactsAfterward:)``).
  static let sql = """
    ALTER TABLE entry ADD COLUMN add_step TEXT;
    ALTER TABLE local_undo_step ADD COLUMN entry_rowid INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sync_device ADD COLUMN undo_entry_rowid INTEGER NOT NULL DEFAULT 0;
    UPDATE sync_device SET undo_entry_rowid = (SELECT coalesce(max(rowid), 0) FROM entry);
    """
}
