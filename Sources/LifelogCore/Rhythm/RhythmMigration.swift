/// Schema v4: the two local-only tables of undo and the reminder, never synced (no stamps, never
/// queued).
///
/// - `local_undo_step` / `local_undo_row`: the last ``UndoLog/keptSteps`` local changes that
///   `lifelog undo` can revert. A row keeps the previous values of every synced column of one
///   changed row (a JSON array, ``UndoColumns``), its field stamps before and after the change,
///   and which fields the change wrote. Rows an import created are not kept one by one: they all
///   carry the import's one stamp, so the step keeps that stamp and their count.
/// - `local_remind`: which gap between meals `lifelog remind` last spoke about on this machine.
enum RhythmMigration {
  /// The script, run as one migration (``Migration/init(identifier:sql:compactsAfterward:)``).
  static let sql = """
    CREATE TABLE local_undo_step (
      seq INTEGER PRIMARY KEY NOT NULL,
      at_ms INTEGER NOT NULL,
      description TEXT NOT NULL,
      bulk_entity TEXT,
      bulk_stamp TEXT,
      bulk_count INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE TABLE local_undo_row (
      step INTEGER NOT NULL,
      entity TEXT NOT NULL,
      id TEXT NOT NULL,
      created INTEGER NOT NULL CHECK (created IN (0, 1)),
      fields TEXT NOT NULL,
      before TEXT,
      before_stamps TEXT NOT NULL,
      after_stamps TEXT NOT NULL
    ) STRICT;
    CREATE INDEX local_undo_row_by_step ON local_undo_row(step);
    CREATE INDEX local_undo_row_by_row ON local_undo_row(entity, id);
    CREATE TABLE local_remind (
      singleton INTEGER PRIMARY KEY NOT NULL CHECK (singleton = 1),
      gap TEXT NOT NULL,
      reminded_at INTEGER NOT NULL
    ) STRICT;
    """
}
