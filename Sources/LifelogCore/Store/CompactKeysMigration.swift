/// Schema v5: entry ids as 16-byte blobs, activities as integer keys.
///
/// The `entry` table is copied once into its new form, in one transaction with the rest of the
/// step, so a log is either all old or all new:
/// - `id` holds ``StoredEntryID``'s form (16 bytes for a lower-case UUID, else the text as it
///   came), with a unique index built after the copy, in one sorted pass, instead of a primary
///   key filled at random places row by row.
/// - `activity` is an integer key into `activity_key`, which maps every activity id the log has
///   seen to a small integer. It is its own table, not the `activity` table's rowid, because an
///   entry can arrive by sync before its activity does: its key exists before the activity row.
/// - a row that breaks v4's own CHECKs (written with them turned off) would fail the copy and
///   leave the log unopenable: its negative duration is taken as absent and a `deleted` other
///   than 0 as set, as sync takes values out of range.
/// - rowids are kept, so the sync queue and reports read in the same order as before.
/// - undo steps that kept an entry's previous activity now keep its key (the column they restore);
///   an undo row whose `before` is not such a JSON array is left untouched (``keptActivityID``).
enum CompactKeysMigration {
  /// The script, run as one migration (``Migration/init(identifier:sql:compactsAfterward:)``).
  static let sql = """
    CREATE TABLE activity_key (
      key INTEGER PRIMARY KEY NOT NULL,
      id TEXT NOT NULL UNIQUE
    ) STRICT;
    INSERT INTO activity_key (id) SELECT id FROM activity ORDER BY rowid;
    INSERT OR IGNORE INTO activity_key (id) SELECT activity_id FROM entry ORDER BY rowid;
    INSERT OR IGNORE INTO activity_key (id)
      SELECT json_extract(before, '$[0]') FROM local_undo_row
      WHERE entity = 'entry' AND \(keptActivityID);
    CREATE TABLE entry_compact (
      id ANY NOT NULL CHECK (typeof(id) = 'text' OR (typeof(id) = 'blob' AND length(id) = 16)),
      activity INTEGER NOT NULL,
      \(Migration.entryValueColumns),
      stamps TEXT NOT NULL DEFAULT ''
    ) STRICT;
    INSERT INTO entry_compact (rowid, id, activity, at, tz_offset, duration, note, quantity, tags,
        source, deleted, stamps)
      SELECT e.rowid, \(StoredEntryID.keyFunction)(e.id), k.key, e.at, e.tz_offset,
        CASE WHEN e.duration >= 0 THEN e.duration END, e.note, e.quantity, e.tags, e.source,
        e.deleted != 0, e.stamps
      FROM entry e JOIN activity_key k ON k.id = e.activity_id ORDER BY e.rowid;
    DROP TABLE entry;
    ALTER TABLE entry_compact RENAME TO entry;
    \(entryIndexes)
    UPDATE local_undo_row
      SET before = json_replace(
        before, '$[0]', (SELECT key FROM activity_key WHERE id = json_extract(before, '$[0]')))
      WHERE entity = 'entry' AND \(keptActivityID);
    """

  /// Whether an undo row's `before` is v4's JSON array starting with the entry's activity id.
  ///
  /// `CASE` because `json_type` fails on text that is not JSON: such a row (a
  /// damaged or hand-edited log) is left as it was, never the reason a whole log cannot open.
  static let keptActivityID = """
    CASE WHEN json_valid(before) THEN json_type(before, '$[0]') END = 'text'
    """

  /// The indexes of `entry`, each the one a query needs (docs/schema.md shows the plans).
  static let entryIndexes = """
    CREATE UNIQUE INDEX entry_by_id ON entry(id);
    CREATE INDEX entry_by_time ON entry(at);
    CREATE INDEX entry_by_activity ON entry(activity, at);
    """
}
