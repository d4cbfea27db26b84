@preconcurrency import Glibc
import LifelogSQLite

/// Change capture (docs/design.md §3): every local write stamps the fields it changes and queues
/// the row to be sent, in the same transaction as the write itself.
extension LogStore {
  /// Milliseconds since 1970 from the system clock.
  public static func systemMilliseconds() -> Int64 { SystemClock.unixMilliseconds() }

  /// This device's id (random, made when sync tables were created).
  public func deviceID() throws -> String {
    if let cachedDeviceID { return cachedDeviceID }
    let id: String =
      try database.cachedStatement(sql: "SELECT id FROM sync_device").first { $0[0] } ?? ""
    cachedDeviceID = id
    return id
  }

  /// The clock as last persisted: the later of `sync_device`'s and the newest undo step's (a
  /// step keeps the reading its stamps were taken from; ``OneRowUndoMigration``), the newest
  /// step kept in an entry (``AddStepMigration``), and the reading the step now being recorded
  /// took.
  ///
  /// Steps are written in order and each reads this before it ticks, so the newest step that
  /// kept a clock holds the latest of them; undoing a step saves a later reading to
  /// `sync_device` in the transaction that deletes it.
  public func clock() throws -> HybridClock {
    let withMark = hasAddStepInEntry
    let device = try database.cachedStatement(
      sql: withMark
        ? "SELECT clock_ms, clock_counter, undo_entry_rowid FROM sync_device"
        : "SELECT clock_ms, clock_counter FROM sync_device"
    ).first { row in
      (
        clock: HybridClock(milliseconds: row[0], counter: row[1]),
        mark: withMark ? row[2] : 0 as Int64
      )
    }
    var clock = device?.clock ?? HybridClock()
    let entryMark = device?.mark ?? 0
    var newestStep: (seq: Int64, entryRowID: Int64)?
    if hasAddStepInEntry {
      newestStep = try newestStepRow(after: &clock)
    } else if hasOneRowUndo, let step = try newestStepClock() {
      clock = clock.later(step)
    }
    if hasAddStepInEntry {
      let newestEntry = try newestEntryStep()
      if let kept = newestEntry?.clock { clock = clock.later(kept) }
      if stepBase == nil, undoCapture?.isRecording == true {
        stepBase = EntryStepBase(
          mark: max(entryMark, newestStep?.entryRowID ?? 0), newestTableSeq: newestStep?.seq ?? 0,
          newestEntryRowID: newestEntry?.rowID ?? 0, keptSeq: newestEntry?.keptSeq ?? .none)
      }
    }
    if let stepClock { clock = clock.later(stepClock) }
    return clock
  }

  /// The clock the newest step row that kept one took (schema v7).
  private func newestStepClock() throws -> HybridClock? {
    try database.cachedStatement(
      sql:
        "SELECT clock_ms, clock_counter FROM local_undo_step WHERE clock_ms IS NOT NULL ORDER BY seq DESC LIMIT 1"
    ).first([], { HybridClock(milliseconds: $0[0], counter: $0[1]) })
  }

  /// The newest step row's seq and entry mark (schema v8), nil when the table is empty; its clock
  /// goes into `clock` (or, when it kept none, the newest row's that did: ``newestStepClock()``).
  ///
  /// One read serves both the clock and the seq an add's step takes (``EntryStepBase``).
  private func newestStepRow(
    after clock: inout HybridClock
  ) throws -> (
    seq: Int64, entryRowID: Int64
  )? {
    var keptClock = false
    let step: (seq: Int64, entryRowID: Int64)? = try database.cachedStatement(
      sql:
        "SELECT seq, entry_rowid, clock_ms, clock_counter FROM local_undo_step ORDER BY seq DESC LIMIT 1"
    ).first([]) { row in
      if !row.isNull(2) {
        keptClock = true
        clock = clock.later(HybridClock(milliseconds: row[2], counter: row[3]))
      }
      return (seq: row[0], entryRowID: row[1])
    }
    if step != nil, !keptClock, let older = try newestStepClock() { clock = clock.later(older) }
    return step
  }

  /// The newest entry (schema v8): its rowid, what its `add_step` says of the step's seq, and
  /// the clock reading kept with that step; nil when the log has no entry.
  ///
  /// The newest entry is enough for the clock: a step kept in an entry is taken when that entry
  /// is inserted, and every later write reads the clock before it inserts anything, then keeps a
  /// later reading itself (in `sync_device`, its step row or its own entry).
  private func newestEntryStep() throws -> (
    rowID: Int64, keptSeq: EntryStepBase.KeptSeq, clock: HybridClock?
  )? {
    var unparsed = false
    let newest = try database.cachedStatement(
      sql: "SELECT rowid, add_step FROM entry ORDER BY rowid DESC LIMIT 1"
    ).first([]) { row -> (rowID: Int64, keptSeq: EntryStepBase.KeptSeq, clock: HybridClock?) in
      guard !row.isNull(1) else { return (row[0], .none, nil) }
      guard let step = row.withUTF8(1, { EntryStepText($0) }) else {
        unparsed = true
        return (row[0], .unreadable, nil)
      }
      return (row[0], .seq(step.seq), step.clock)
    }
    guard unparsed, let newest else { return newest }
    return try database.cachedStatement(
      sql: """
        SELECT CASE WHEN json_valid(add_step) AND json_type(add_step, '$[0]') = 'integer'
            THEN json_extract(add_step, '$[0]') END,
          CASE WHEN json_valid(add_step) THEN json_extract(add_step, '$[3]') END,
          CASE WHEN json_valid(add_step) THEN json_extract(add_step, '$[4]') END
        FROM entry WHERE rowid = ?
        """
    ).first([newest.rowID]) { row in
      let keptSeq: EntryStepBase.KeptSeq = (row[0] as Int64?).map { .seq($0) } ?? .unreadable
      var clock: HybridClock?
      if let milliseconds = row[1] as Int64?, let counter = row[2] as Int64? {
        clock = HybridClock(milliseconds: milliseconds, counter: Int(clamping: counter))
      }
      return (rowID: newest.rowID, keptSeq: keptSeq, clock: clock)
    }
  }

  /// Persists the clock in `sync_device`; call inside the write transaction that used it.
  public func saveClock(_ clock: HybridClock) throws {
    try database.execute(
      sql: "UPDATE sync_device SET clock_ms = ?, clock_counter = ?",
      arguments: [clock.milliseconds, clock.counter])
  }

  /// A new stamp for a local write, advancing and persisting the clock.
  ///
  /// Call inside a write transaction, so the clock and the write commit together. Inside an undo
  /// step being recorded, the reading is kept for the step's row (one page fewer per command);
  /// a step that ends up recording nothing saves it to `sync_device` instead.
  public func nextStamp() throws -> String {
    var clock = try clock()
    let reading = clock.tick(wall: wallClockMilliseconds())
    if hasOneRowUndo, undoCapture?.isRecording == true {
      stepClock = clock
    } else {
      try saveClock(clock)
    }
    return Stamp.make(
      milliseconds: reading.milliseconds, counter: reading.counter, device: try deviceID())
  }

  /// Queues a row to be sent on the next sync; a row queued twice goes into one batch once.
  ///
  /// The queue is append-only (an integer key, always at the end of the table), so queueing costs
  /// almost nothing even for a bulk import; duplicates are collapsed when batches are made.
  public func markPending(_ entity: SyncedEntity, id: String) throws {
    try database.execute(sql: LogStore.markPendingSQL, arguments: [entity.rawValue, id])
  }

  static let markPendingSQL = "INSERT INTO sync_pending (entity, id) VALUES (?, ?)"

  /// Queues an entry this machine has just inserted: at schema v7 it is queued by being past
  /// `sync_device.queued_entry_rowid` (no row, no page written), before that by a queue row.
  func markInsertedEntryPending(id: String) throws {
    if !hasOneRowUndo { try markPending(.entry, id: id) }
  }

  /// The highest `entry` rowid already in the queue or sent: every entry past it is pending.
  public func queuedEntryRowID() throws -> Int64 {
    guard hasOneRowUndo else { return try lastEntryRowID() }
    return try database.cachedStatement(sql: "SELECT queued_entry_rowid FROM sync_device").first {
      $0[0] as Int64
    } ?? 0
  }

  /// The number of rows changed locally and not yet in a batch: the queue rows, each row once,
  /// and the entries past ``queuedEntryRowID()``.
  public func pendingRowCount() throws -> Int {
    try database.cachedStatement(
      sql: """
        SELECT count(*) FROM (SELECT entity, id FROM sync_pending
          UNION SELECT 'entry', \(StoredEntryID.text(of: "id")) FROM entry WHERE rowid > ?)
        """
    ).first([try queuedEntryRowID()]) { $0[0] } ?? 0
  }

  /// Moves the entries past ``queuedEntryRowID()`` into queue rows and the mark past them.
  ///
  /// In insertion order; before a merge (whose inserted rows must not be sent back) and before
  /// batches are made. Call inside a write transaction.
  public func queueEntriesPastMark() throws {
    guard hasOneRowUndo else { return }
    let mark = try queuedEntryRowID()
    guard try lastEntryRowID() > mark else { return }
    try database.execute(
      sql:
        "INSERT INTO sync_pending (entity, id) SELECT ?, \(StoredEntryID.text(of: "id")) FROM entry WHERE rowid > ? ORDER BY rowid",
      arguments: [SyncedEntity.entry.rawValue, mark])
    try markEntriesQueued()
  }

  /// Moves the mark past every entry now in the log.
  ///
  /// After a merge, whose rows came from elsewhere, and after the queue was rebuilt. Call inside
  /// a write transaction.
  public func markEntriesQueued() throws {
    guard hasOneRowUndo else { return }
    try database.execute(
      sql: "UPDATE sync_device SET queued_entry_rowid = (SELECT coalesce(max(rowid), 0) FROM entry)"
    )
    // The rows now past the marks came from elsewhere: no step is kept in them, and the add
    // steps kept in entries before them move to the table (``moveEntryStepsToTable()``), in
    // order only when every seq is in range.
    try keepStepSeqsInRange()
    try moveEntryStepsToTable()
    try markEntryStepsMoved()
  }

  /// The highest rowid of `entry` (0 when empty): every row inserted after this call gets a
  /// higher one, which ``queueEntries(addedAfter:)`` relies on.
  package func lastEntryRowID() throws -> Int64 {
    try database.cachedStatement(sql: "SELECT coalesce(max(rowid), 0) FROM entry").first {
      $0[0] as Int64
    } ?? 0
  }

  /// Queues every entry inserted since ``lastEntryRowID()`` returned `rowID`, in insertion order,
  /// with one statement instead of one per row (a bulk add or an import); at schema v7 they are
  /// queued already, by position (``queuedEntryRowID()``).
  ///
  /// Call inside the transaction that inserted them, before it commits, so capture stays atomic.
  package func queueEntries(addedAfter rowID: Int64) throws {
    guard !hasOneRowUndo else { return }
    try database.execute(
      sql:
        "INSERT INTO sync_pending (entity, id) SELECT ?, \(StoredEntryID.text(of: "id")) FROM entry WHERE rowid > ? ORDER BY rowid",
      arguments: [SyncedEntity.entry.rawValue, rowID])
  }

  /// Stamps the named fields of a row with `stamp` and queues the row.
  package func restamp(
    _ entity: SyncedEntity, id: String, fields: [String], with stamp: String
  ) throws {
    guard !fields.isEmpty else { return }
    let current: String =
      try database.cachedStatement(
        sql: "SELECT stamps FROM \(entity.table) WHERE \(entity.idMatch())"
      )
      .first([id]) { $0[0] } ?? ""
    var stamps = FieldStamps(decoding: current, count: entity.fields.count)
    for field in fields {
      if let index = entity.index(of: field) { stamps[index] = stamp }
    }
    try database.execute(
      sql: "UPDATE \(entity.table) SET stamps = ? WHERE \(entity.idMatch())",
      arguments: [stamps.encoded, id])
    try markPending(entity, id: id)
  }
}
