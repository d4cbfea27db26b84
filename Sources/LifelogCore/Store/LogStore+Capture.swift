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

  /// The clock as last persisted.
  public func clock() throws -> HybridClock {
    try database.cachedStatement(sql: "SELECT clock_ms, clock_counter FROM sync_device").first {
      HybridClock(milliseconds: $0[0], counter: $0[1])
    } ?? HybridClock()
  }

  /// Persists the clock; call inside the write transaction that used it.
  public func saveClock(_ clock: HybridClock) throws {
    try database.execute(
      sql: "UPDATE sync_device SET clock_ms = ?, clock_counter = ?",
      arguments: [clock.milliseconds, clock.counter])
  }

  /// A new stamp for a local write, advancing and persisting the clock.
  ///
  /// Call inside a write transaction, so the clock and the write commit together.
  public func nextStamp() throws -> String {
    var clock = try clock()
    let reading = clock.tick(wall: wallClockMilliseconds())
    try saveClock(clock)
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

  /// The highest rowid of `entry` (0 when empty): every row inserted after this call gets a
  /// higher one, which ``queueEntries(addedAfter:)`` relies on.
  func lastEntryRowID() throws -> Int64 {
    try database.cachedStatement(sql: "SELECT coalesce(max(rowid), 0) FROM entry").first {
      $0[0] as Int64
    } ?? 0
  }

  /// Queues every entry inserted since ``lastEntryRowID()`` returned `rowID`, in insertion order,
  /// with one statement instead of one per row (a bulk add or an import).
  ///
  /// Call inside the transaction that inserted them, before it commits, so capture stays atomic.
  func queueEntries(addedAfter rowID: Int64) throws {
    try database.execute(
      sql:
        "INSERT INTO sync_pending (entity, id) SELECT ?, \(StoredEntryID.text(of: "id")) FROM entry WHERE rowid > ? ORDER BY rowid",
      arguments: [SyncedEntity.entry.rawValue, rowID])
  }

  /// Stamps the named fields of a row with `stamp` and queues the row.
  func restamp(_ entity: SyncedEntity, id: String, fields: [String], with stamp: String) throws {
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
