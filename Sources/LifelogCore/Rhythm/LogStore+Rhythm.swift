import LifelogSQLite

/// The queries `due`, `remind`, `again` and the `last`/`-N` references read: each one indexed
/// query, so `lifelog due --short` answers as fast as `lifelog list` on any size of log.
extension LogStore {
  /// The latest live meal at or before `instant` (a meal logged for later does not count yet).
  public func lastMeal(atOrBefore instant: Int64) throws -> Entry? {
    try latestEntry(of: .meal, atOrBefore: instant)
  }

  /// The latest live sleep that began at or before `instant`.
  public func lastSleep(atOrBefore instant: Int64) throws -> Entry? {
    try latestEntry(of: .sleep, atOrBefore: instant)
  }

  /// The latest live entry of an activity of `kind` at or before `instant`.
  ///
  /// One index seek per activity of that kind (`entry_by_activity`), newest first, instead of
  /// walking the time index past every other kind of entry. The kind is written into the SQL (a
  /// case of ``ActivityKind``, never outside text), so each kind keeps its own cached statement.
  private func latestEntry(of kind: ActivityKind, atOrBefore instant: Int64) throws -> Entry? {
    try read {
      try database.cachedStatement(
        sql: """
          SELECT \(LogStore.entryColumns)
          FROM activity a JOIN activity_key k ON k.id = a.id JOIN entry e ON e.rowid = (
            SELECT rowid FROM entry WHERE activity = k.key AND deleted = 0 AND at <= ?
            ORDER BY at DESC, id DESC LIMIT 1)
          WHERE a.kind = '\(kind.rawValue)'
          ORDER BY e.at DESC, e.id DESC LIMIT 1
          """
      ).first([instant], LogStore.decodeEntry)
    }
  }

  /// The `back`-th most recent entry by time (1 is the latest, as the last row of `lifelog list`),
  /// live or (with `deleted`) deleted, optionally of one activity.
  public func recentEntryID(back: Int, activityID: String?, deleted: Bool) throws -> String? {
    var arguments: [any SQLiteBindable] = []
    if let activityID { arguments.append(activityID) }
    arguments.append(back - 1)
    return try read {
      try database.cachedStatement(
        sql: LogStore.recentEntrySQL(ofOneActivity: activityID != nil, deleted: deleted)
      ).first(arguments) { $0[0] }
    }
  }

  /// The query of ``recentEntryID(back:activityID:deleted:)``, a walk back along a time index.
  ///
  /// It reads `back` rows of `entry_by_time` (or `entry_by_activity`) plus those passed over as
  /// deleted (or live), never the whole table. Ties on `at` (rare) are put in `id` order by a
  /// small sort of just the tied rows, which the LIMIT ends early.
  ///
  /// Left to itself, SQLite's planner scanned and sorted the whole table for this query (30 ms
  /// more per `show -3` on a 100k log), whether `deleted` was bound or written in; `INDEXED BY`
  /// holds it to the index, and makes the query an error rather than a scan if the index is
  /// ever gone. Ending the indexes in `id` did the same but grew a 100k log by a quarter
  /// (docs/schema.md).
  static func recentEntrySQL(ofOneActivity: Bool, deleted: Bool) -> String {
    "SELECT \(StoredEntryID.text(of: "id")) FROM entry INDEXED BY "
      + (ofOneActivity ? "entry_by_activity" : "entry_by_time")
      + " WHERE deleted = \(deleted ? 1 : 0)"
      + (ofOneActivity ? " AND activity = (SELECT key FROM activity_key WHERE id = ?)" : "")
      + " ORDER BY at DESC, id DESC LIMIT 1 OFFSET ?"
  }
}
