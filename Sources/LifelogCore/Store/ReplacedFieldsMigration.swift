/// Schema v6: `local_replaced_field`, local-only (no stamps, never queued or synced).
///
/// One row per local field value that a sync replaced with a later change from another machine
/// (``ReplacedField``): both values as shown to a person, both stamps, the machine the winner
/// came from, and `run_ms`, when the sync that merged it started. `lifelog sync` lists a run's
/// rows, `status` the newest run's, `show ID` an entry's. Kept to ``ReplacedField/keptRows``, so
/// it needs no index: a scan of at most a thousand short rows costs less than keeping one up.
enum ReplacedFieldsMigration {
  /// The script, run as one migration (``Migration/init(identifier:sql:compactsAfterward:)``).
  static let sql = """
    CREATE TABLE local_replaced_field (
      run_ms INTEGER NOT NULL,
      entity TEXT NOT NULL,
      id TEXT NOT NULL,
      field TEXT NOT NULL,
      local_value TEXT NOT NULL,
      local_stamp TEXT NOT NULL,
      remote_value TEXT NOT NULL,
      remote_stamp TEXT NOT NULL,
      remote_device TEXT NOT NULL
    ) STRICT;
    """
}
