import LifelogSQLite

/// Entries: adding, reading, editing, deleting and restoring.
extension LogStore {
  /// What ``decodeEntry(_:)`` reads, from ``entrySource``: ids in their text form.
  static let entryColumns = """
    \(StoredEntryID.text(of: "e.id")), k.id, a.name, a.kind, a.unit, e.at, e.tz_offset, e.duration, e.note, e.quantity,
    e.tags, e.source, e.deleted
    """

  /// An entry with its activity's id and row.
  ///
  /// Left joins, so the entry stays the outer loop (a query ordered by time walks
  /// `entry_by_time`); every entry has a key, but its activity may not have arrived by sync yet.
  package static let entrySource = """
    entry e LEFT JOIN activity_key k ON k.key = e.activity LEFT JOIN activity a ON a.id = k.id
    """

  /// Adds one entry and returns it as stored.
  @discardableResult
  public func add(_ entry: NewEntry) throws -> Entry {
    try write {
      try insertRow(entry, stamp: try nextStamp())
      try markEntriesAddedOutsideAStep()
    }
    guard let stored = try self.entry(id: entry.id) else {
      throw StoreError.sqlite(SQLiteError(code: 1, message: "entry vanished after insert"))
    }
    return stored
  }

  /// Adds many entries in one transaction: all of them, or none.
  ///
  /// One prepared statement, bound value by value (no array of existentials per row), and one
  /// `INSERT … SELECT` that queues all the added rows for sync before the commit, instead of one
  /// queue insert per row: the same rows, queued in the same order, in the same transaction.
  public func add(contentsOf entries: [NewEntry]) throws {
    try write {
      let stamp = try nextStamp()
      let lastRowIDBefore = try lastEntryRowID()
      let insert = try database.cachedStatement(sql: LogStore.insertEntrySQL)
      var keys: [String: Int64] = [:]
      for entry in entries {
        try EntryFields.checkRanges(duration: entry.duration, quantity: entry.quantity)
        let key = try keys[entry.activityID] ?? activityKey(for: entry.activityID)
        keys[entry.activityID] = key
        try LogStore.runEntryInsert(insert, entry, activityKey: key, stamp: stamp)
      }
      try queueEntries(addedAfter: lastRowIDBefore)
      try markEntriesAddedOutsideAStep()
    }
  }

  package static let insertEntrySQL = """
    INSERT INTO entry (id, activity, at, tz_offset, duration, note, quantity, tags, source, stamps)
    VALUES (\(StoredEntryID.parameter), ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  /// The integer key of activity `id` in `entry.activity`, made on first use; keys are never
  /// removed or reused, so a key read once stays right for the log's life.
  package func activityKey(for id: String) throws -> Int64 {
    try LogStore.activityKey(for: id, in: database)
  }

  /// ``activityKey(for:)`` on a connection of a log (the sync's merge writes through its own).
  public static func activityKey(for id: String, in database: Database) throws -> Int64 {
    let find = try database.cachedStatement(sql: "SELECT key FROM activity_key WHERE id = ?")
    if let key: Int64 = try find.first([id], { $0[0] }) { return key }
    try database.execute(sql: "INSERT INTO activity_key (id) VALUES (?)", arguments: [id])
    return database.lastInsertedRowID
  }

  /// Runs `insert` (``insertEntrySQL``, with or without a conflict clause) for one entry, its
  /// values bound one by one in the statement's column order: the one place that order is
  /// written, for bulk adds and imports alike.
  package static func runEntryInsert(
    _ insert: Statement, _ entry: NewEntry, activityKey: Int64, stamp: String
  ) throws {
    insert.reset()
    try insert.bind(entry.id, at: 1)
    try insert.bind(activityKey, at: 2)
    try insert.bind(entry.time.instant, at: 3)
    try insert.bind(entry.time.offsetMinutes, at: 4)
    try insert.bind(entry.duration, at: 5)
    try insert.bind(entry.note, at: 6)
    try insert.bind(entry.quantity, at: 7)
    try insert.bind(entry.tags.joinedText(separator: " "), at: 8)
    try insert.bind(entry.source, at: 9)
    try insert.bind(stamp, at: 10)
    try insert.run()
  }

  private func insertRow(_ entry: NewEntry, stamp: String) throws {
    try EntryFields.checkRanges(duration: entry.duration, quantity: entry.quantity)
    try LogStore.runEntryInsert(
      database.cachedStatement(sql: LogStore.insertEntrySQL), entry,
      activityKey: activityKey(for: entry.activityID), stamp: stamp)
    try markInsertedEntryPending(id: entry.id)
  }

  /// The entry with exactly this id, deleted or not.
  public func entry(id: String) throws -> Entry? {
    try read {
      try database.cachedStatement(
        sql:
          "SELECT \(LogStore.entryColumns) FROM \(LogStore.entrySource) WHERE e.id = \(StoredEntryID.parameter)"
      ).first([id], LogStore.decodeEntry)
    }
  }

  /// The entries a query selects, oldest first.
  public func entries(_ query: EntryQuery) throws -> [Entry] {
    var result: [Entry] = []
    try forEachEntry(query) { result.append($0) }
    return result
  }

  /// Calls `body` with each entry a query selects, oldest first, without holding them all.
  public func forEachEntry(_ query: EntryQuery, _ body: (Entry) throws -> Void) throws {
    var conditions = ["e.deleted = ?"]
    var arguments: [any SQLiteBindable] = [query.deleted]
    if let from = query.from {
      conditions.append("e.at >= ?")
      arguments.append(from)
    }
    if let to = query.to {
      conditions.append("e.at < ?")
      arguments.append(to)
    }
    if let activityID = query.activityID {
      conditions.append("e.activity = (SELECT key FROM activity_key WHERE id = ?)")
      arguments.append(activityID)
    }
    let base = """
      SELECT \(LogStore.entryColumns) FROM \(LogStore.entrySource)
      WHERE \(conditions.joinedText(separator: " AND "))
      """
    try read {
      if let limit = query.limit {
        // The most recent `limit`, found from the end of the time index, then put oldest first.
        let newest = try database.cachedStatement(
          sql: base + " ORDER BY e.at DESC, e.id DESC LIMIT ?"
        )
        .map(arguments + [limit], LogStore.decodeEntry)
        for entry in newest.reversed() { try body(entry) }
      } else {
        try database.cachedStatement(sql: base + " ORDER BY e.at, e.id").forEachRow(arguments) {
          try body(LogStore.decodeEntry($0))
        }
      }
    }
  }

  /// Applies `changes` to one entry and returns it as stored.
  @discardableResult
  public func update(id: String, with changes: EntryChanges) throws -> Entry {
    try write {
      guard var entry = try entry(id: id) else { throw noSuchEntry(id) }
      if let activityID = changes.activityID { entry.activityID = activityID }
      if let time = changes.time { entry.time = time }
      try EntryFields.checkRanges(
        duration: changes.duration ?? nil, quantity: changes.quantity ?? nil)
      if let duration = changes.duration { entry.duration = duration }
      if let note = changes.note { entry.note = note }
      if let quantity = changes.quantity { entry.quantity = quantity }
      if let tags = changes.tags { entry.tags = tags }
      try database.execute(
        sql: """
          UPDATE entry SET activity = ?, at = ?, tz_offset = ?, duration = ?, note = ?, quantity = ?,
            tags = ? WHERE \(SyncedEntity.entry.idMatch())
          """,
        arguments: [
          try activityKey(for: entry.activityID), entry.time.instant, entry.time.offsetMinutes,
          entry.duration,
          entry.note,
          entry.quantity, entry.tags.joined(separator: " "), id,
        ])
      var fields: [String] = []
      if changes.activityID != nil { fields.append("activity") }
      if changes.time != nil { fields.append("at") }
      if changes.duration != nil { fields.append("duration") }
      if changes.note != nil { fields.append("note") }
      if changes.quantity != nil { fields.append("quantity") }
      if changes.tags != nil { fields.append("tags") }
      try restamp(.entry, id: id, fields: fields, with: try nextStamp())
    }
    guard let stored = try entry(id: id) else { throw noSuchEntry(id) }
    return stored
  }

  /// Marks entries deleted (or restores them), all in one transaction.
  ///
  /// - Returns: each entry as it now is, and whether this call changed it (false when it already
  ///   was in that state).
  public func setDeleted(_ deleted: Bool, ids: [String]) throws -> [(entry: Entry, changed: Bool)] {
    try write {
      var result: [(Entry, Bool)] = []
      for id in ids {
        try database.execute(
          sql:
            "UPDATE entry SET deleted = ? WHERE \(SyncedEntity.entry.idMatch()) AND deleted != ?",
          arguments: [deleted, id, deleted])
        let changed = database.changes > 0
        if changed { try restamp(.entry, id: id, fields: ["deleted"], with: try nextStamp()) }
        guard let entry = try entry(id: id) else { throw noSuchEntry(id) }
        result.append((entry, changed))
      }
      return result
    }
  }

  /// The number of live entries.
  public func entryCount() throws -> Int {
    try read {
      try database.cachedStatement(sql: "SELECT count(*) FROM entry WHERE deleted = 0").first {
        $0[0]
      } ?? 0
    }
  }

  private func noSuchEntry(_ id: String) -> InputError {
    InputError("No entry has id '\(id)'; run 'lifelog list' to see ids")
  }

  static func decodeEntry(_ row: Row) throws -> Entry {
    let tagsText: String = row[10]
    return Entry(
      // An entry can arrive by sync before its activity does; it still shows.
      id: row[0], activityID: row[1], activityName: row[2] as String? ?? "(unknown activity)",
      kind: ActivityKind(rawValue: row[3] as String? ?? "") ?? .other, unit: row[4],
      time: LoggedTime(instant: row[5], offsetMinutes: row[6]),
      duration: EntryFields.stored(duration: row[7]),
      note: row[8], quantity: EntryFields.stored(quantity: row[9]),
      tags: tagsText.isEmpty ? [] : tagsText.split(separator: " ").map(String.init),
      source: row[11], deleted: row[12])
  }
}
