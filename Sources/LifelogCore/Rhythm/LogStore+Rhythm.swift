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
          SELECT \(LogStore.entryColumns) FROM activity a JOIN entry e ON e.id = (
            SELECT id FROM entry WHERE activity_id = a.id AND deleted = 0 AND at <= ?
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

  /// The query of ``recentEntryID(back:activityID:deleted:)``: walked from the end of
  /// `entry_by_time` (or `entry_by_activity`), both ending in `id`, so it reads `back` rows plus
  /// those passed over as deleted (or live), never the whole table (schema v5).
  ///
  /// `deleted` is written into the SQL: bound as a parameter, SQLite's planner chose a scan of
  /// the table and a sort of it instead of the index.
  static func recentEntrySQL(ofOneActivity: Bool, deleted: Bool) -> String {
    "SELECT id FROM entry WHERE deleted = \(deleted ? 1 : 0)"
      + (ofOneActivity ? " AND activity_id = ?" : "")
      + " ORDER BY at DESC, id DESC LIMIT 1 OFFSET ?"
  }
}
