import LifelogCore
import LifelogProtocol
import LifelogSQLite

/// The sync engine's view of the local log: pending rows into outbox batches, remote batches
/// merged in, the version vector, and what is remembered about each remote.
public final class SyncStore {
  public let log: LogStore
  var database: Database { log.database }

  /// The most rows one batch carries; a larger backlog becomes several batches.
  public static let rowsPerBatch = 5_000

  public init(log: LogStore) { self.log = log }

  public var deviceID: String { get throws { try log.deviceID() } }

  /// This device's name.
  public func deviceName() throws -> String {
    try database.cachedStatement(sql: "SELECT name FROM sync_device").first { $0[0] } ?? ""
  }

  // MARK: - Outgoing

  /// The number of rows changed locally and not yet in a batch.
  public func pendingCount() throws -> Int { try log.pendingRowCount() }

  /// Turns pending rows into outbox batches, each in its own short transaction together with the
  /// removal of its rows from the queue, so a crash leaves every row either pending or batched.
  ///
  /// - Returns: how many batches were made.
  @discardableResult
  public func makeBatches(now: Int64) throws -> Int {
    var made = 0
    while try log.inTransaction({ try makeOneBatch(now: now) }) { made += 1 }
    return made
  }

  private func makeOneBatch(now: Int64) throws -> Bool {
    try log.queueEntriesPastMark()
    // The oldest queued rows, each once, in the order they were first changed (so an activity
    // goes before the entries made with it).
    var seen = Set<String>()
    var queued: [(SyncedEntity, String)] = []
    var lastPosition: Int64 = 0
    try database.cachedStatement(
      sql: "SELECT position, entity, id FROM sync_pending ORDER BY position LIMIT ?"
    )
    .forEachRow([SyncStore.rowsPerBatch]) { row in
      lastPosition = row[0]
      let key = (row[1] as String) + " " + (row[2] as String)
      if seen.insert(key).inserted, let entity = SyncedEntity(rawValue: row[1]) {
        queued.append((entity, row[2]))
      }
    }
    guard lastPosition > 0 else { return false }
    let changes = try queued.compactMap { try RowCodec.read($0.0, id: $0.1, in: database) }
    try database.execute(
      sql: "DELETE FROM sync_pending WHERE position <= ?", arguments: [lastPosition])
    guard !changes.isEmpty else { return true }
    let device = try deviceID
    let seq = try lastSeq() + 1
    let batch = Batch(device: device, seq: seq, created: now, changes: changes)
    try database.execute(
      sql: "INSERT INTO sync_outbox (seq, body) VALUES (?, ?)",
      arguments: [seq, BatchCodec.encode(batch)])
    try database.execute(sql: "UPDATE sync_device SET last_seq = ?", arguments: [seq])
    try setApplied(device: device, seq: seq)
    return true
  }

  /// Outbox batches after `seq`, oldest first, at most `limit` of them.
  public func outbox(after seq: Int, limit: Int = 50) throws -> [(seq: Int, bytes: [UInt8])] {
    try database.cachedStatement(
      sql: "SELECT seq, body FROM sync_outbox WHERE seq > ? ORDER BY seq LIMIT ?"
    )
    .map([seq, limit]) { ($0[0], $0[1]) }
  }

  /// The newest batch seq this device has made.
  public func lastSeq() throws -> Int {
    try database.cachedStatement(sql: "SELECT last_seq FROM sync_device").first { $0[0] } ?? 0
  }

  // MARK: - Incoming

  /// The batches merged into this log, per device.
  public func appliedVector() throws -> VersionVector {
    var seqs: [String: Int] = [:]
    try database.cachedStatement(sql: "SELECT device, seq FROM sync_applied").forEachRow {
      seqs[$0[0]] = $0[1]
    }
    return VersionVector(seqs)
  }

  func setApplied(device: String, seq: Int) throws {
    try database.execute(
      sql: """
        INSERT INTO sync_applied (device, seq) VALUES (?, ?)
        ON CONFLICT (device) DO UPDATE SET seq = max(seq, excluded.seq)
        """,
      arguments: [device, seq])
  }

  /// Merges the rows of one batch or snapshot, field by field, without queueing anything to be sent
  /// back.
  ///
  /// Call inside a transaction.
  ///
  /// - Returns: the newest stamp seen, so the caller can advance the clock past it.
  /// Local field values a later change replaces are kept (``ReplacedField``), stamped with `run`.
  func merge(_ batch: Batch, run: Int64) throws -> String {
    // Entries inserted here are queued by position: those made before the merge are queued by
    // row now, and the merged ones left behind the mark, so they are not sent back.
    try log.queueEntriesPastMark()
    var newest = Stamp.never
    let here = Stamp.devicePart(try deviceID)
    var replaced: [ReplacedField] = []
    for change in batch.changes {
      let existing = try RowCodec.read(change.entity, id: change.id, in: database)
      if let existing {
        for (index, field) in RowCodec.replacedLocalFields(change, existing: existing, here: here) {
          replaced.append(
            ReplacedField(
              entity: change.entity, id: change.id, field: field,
              localValue: try shown(existing.values[index], field: field),
              localStamp: existing.stamps[index],
              remoteValue: try shown(change.values[index], field: field),
              remoteStamp: change.stamps[index],
              remoteDevice: Stamp.devicePart(batch.device)
                == String(change.stamps[index].suffix(12))
                ? batch.device : String(change.stamps[index].suffix(12)),
              runMilliseconds: run))
        }
      }
      if let merged = RowCodec.merge(change, into: existing) {
        try RowCodec.write(merged, in: database)
      }
      newest = max(newest, change.stamps.newest)
    }
    try log.recordReplaced(replaced)
    try log.markEntriesQueued()
    return newest
  }

  /// A field's value as a person reads it: an entry's activity by its name.
  private func shown(_ value: FieldValue, field: String) throws -> String {
    if field == "activity", case .text(let id) = value {
      return try database.cachedStatement(sql: "SELECT name FROM activity WHERE id = ?").first(
        [id]) { $0[0] } ?? id
    }
    return RowCodec.shown(value)
  }

  /// Applies pulled batches and records the new cursor, all in one transaction.
  ///
  /// - Parameter now: the wall clock, which the hybrid clock is never moved beyond by more than
  ///   ``Stamp/aheadLimit`` (the engine holds batches stamped further ahead; this is a second fence).
  /// - Returns: the newest stamp in the batches.
  /// - Parameter run: when the sync started (Unix ms), recorded with the fields it replaced.
  public func apply(
    _ batches: [Batch], remote: String, cursor: String, now: Int64, run: Int64 = 0
  ) throws -> String {
    try log.inTransaction {
      var newest = Stamp.never
      for batch in batches {
        newest = max(newest, try merge(batch, run: run))
        if batch.kind == .batch {
          try setApplied(device: batch.device, seq: batch.seq)
        } else {
          for (device, seq) in batch.covers.seqs { try setApplied(device: device, seq: seq) }
        }
      }
      try observe(newest, wall: now)
      try database.execute(
        sql: "UPDATE sync_remote SET cursor = ? WHERE name = ?", arguments: [cursor, remote])
      return newest
    }
  }

  /// Moves the hybrid logical clock past a stamp received from another machine.
  func observe(_ stamp: String, wall: Int64) throws {
    guard stamp != Stamp.never else { return }
    var clock = try log.clock()
    clock.observe(stamp, wall: wall)
    try log.saveClock(clock)
  }

  // MARK: - Snapshots

  /// The whole merged log as a snapshot, covering every batch merged or made here.
  public func snapshot(now: Int64) throws -> Batch {
    try log.inTransaction {
      var changes: [RowChange] = []
      for entity in [SyncedEntity.activity, .setting, .entry] {
        changes += try database.cachedStatement(
          sql: "SELECT \(RowCodec.columns(entity)) FROM \(entity.table)"
        )
        .map { RowCodec.decode(entity, $0) }
      }
      return Batch(
        kind: .snapshot, device: try deviceID, seq: 0, created: now, covers: try appliedVector(),
        changes: changes)
    }
  }
}
