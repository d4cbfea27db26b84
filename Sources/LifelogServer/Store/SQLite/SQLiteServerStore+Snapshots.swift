import LifelogCore
import LifelogProtocol
import LifelogSQLite

extension SQLiteServerStore {
  /// Stores a verified snapshot under `name`; older snapshots of the same device that this one
  /// covers are dropped (a device's log only grows, so the newer one holds all they held).
  public func storeSnapshot(
    user: Int64, name: String, header: Batch, bytes: [UInt8], sha256: String
  ) throws
    -> StoreOutcome
  {
    try write {
      if let existing = try snapshotRecord(user: user, name: name) {
        return existing.sha256 == sha256 ? .exists(cursor: existing.id) : .conflict
      }
      let older = try database.cachedStatement(
        sql: "SELECT id, covers FROM snapshots WHERE user_id = ? AND device = ?"
      ).map([user, header.device]) {
        ($0[0] as Int64, (try? VersionVector(parsing: $0[1] as String)) ?? VersionVector())
      }
      for (id, covers) in older where header.covers.covers(covers) {
        try database.execute(sql: "DELETE FROM snapshots WHERE id = ?", arguments: [id])
      }
      let id =
        try database.cachedStatement(
          sql: """
            INSERT INTO snapshots (user_id, name, device, created, covers, sha256, size, received, bytes)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """
        ).first([
          user, name, header.device, header.created, header.covers.json, sha256, bytes.count,
          ServerClock.milliseconds(), bytes,
        ]) { $0[0] as Int64 } ?? 0
      return .created(cursor: id)
    }
  }

  public func snapshotRecord(user: Int64, name: String) throws -> SnapshotRecord? {
    try database.cachedStatement(
      sql:
        "SELECT id, name, device, created, covers, sha256, size FROM snapshots WHERE user_id = ? AND name = ?"
    ).first([user, name], SQLiteServerStore.snapshotRecord)
  }

  public func snapshotBytes(id: Int64) throws -> [UInt8] {
    try database.cachedStatement(sql: "SELECT bytes FROM snapshots WHERE id = ?").first([id]) {
      $0[0] as [UInt8]
    } ?? []
  }

  /// The newest snapshot of the user, or with `excluded`, the newest written by another device
  /// that holds a batch of a device other than `excluded` which `cursor` has neither passed nor
  /// holds through its floor (docs/http-api.md, "Snapshots").
  public func latestSnapshot(
    user: Int64, beyond cursor: ServerCursor?, excluding excluded: String?
  ) throws
    -> SnapshotRecord?
  {
    try read {
      let candidates = try database.cachedStatement(
        sql:
          "SELECT id, name, device, created, covers, sha256, size FROM snapshots WHERE user_id = ? ORDER BY id DESC"
      ).map([user], SQLiteServerStore.snapshotRecord)
      let newer = try database.cachedStatement(
        sql: "SELECT 1 FROM batches WHERE user_id = ? AND cursor > ? AND device IS NOT ? LIMIT 1")
      let reaches = try database.cachedStatement(
        sql:
          "SELECT 1 FROM batches WHERE user_id = ? AND device = ? AND seq > ? AND seq <= ? AND cursor > ? LIMIT 1"
      )
      return try StoreRules.latestSnapshot(
        candidates, beyond: cursor, excluding: excluded,
        anyNewer: { try newer.first([user, $0, excluded]) { _ in true } ?? false },
        reaches: { device, floor, seq, position in
          try reaches.first([user, device, floor, seq, position]) { _ in true } ?? false
        })
    }
  }

  private static func snapshotRecord(_ row: Row) -> SnapshotRecord {
    SnapshotRecord(
      id: row[0], name: row[1], device: row[2], created: row[3],
      covers: (try? VersionVector(parsing: row[4] as String)) ?? VersionVector(), sha256: row[5],
      size: row[6])
  }
}
