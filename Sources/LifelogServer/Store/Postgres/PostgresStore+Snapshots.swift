import LifelogProtocol

extension PostgresStore {
  public func storeSnapshot(
    user: Int64, name: String, header: Batch, bytes: [UInt8], sha256: String
  ) throws -> StoreOutcome {
    try write {
      let inserted = try connection.query(
        """
        INSERT INTO snapshots (user_id, name, device, created, covers, sha256, size, received, bytes)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT (user_id, name) DO NOTHING RETURNING id
        """,
        [
          user, name, header.device, header.created, header.covers.json, sha256, bytes.count,
          ServerClock.milliseconds(), bytes,
        ])
      guard inserted.count == 1 else {
        let stored = try snapshotRecord(user: user, name: name)
        return stored?.sha256 == sha256 ? .exists(cursor: stored?.id ?? 0) : .conflict
      }
      let id = inserted.int64(0, 0)
      let older = try connection.query(
        "SELECT id, covers FROM snapshots WHERE user_id = $1 AND device = $2 AND id <> $3 ORDER BY id",
        [user, header.device, id])
      for row in 0..<older.count
      where header.covers.covers(
        (try? VersionVector(parsing: older.text(row, 1))) ?? VersionVector())
      {
        try connection.query("DELETE FROM snapshots WHERE id = $1", [older.int64(row, 0)])
      }
      return .created(cursor: id)
    }
  }

  public func snapshotRecord(user: Int64, name: String) throws -> SnapshotRecord? {
    let result = try connection.query(
      """
      SELECT id, name, device, created, covers, sha256, size FROM snapshots
      WHERE user_id = $1 AND name = $2
      """, [user, name])
    return result.count > 0 ? PostgresStore.snapshotRecord(result, 0) : nil
  }

  public func snapshotBytes(id: Int64) throws -> [UInt8] {
    let result = try connection.query("SELECT bytes FROM snapshots WHERE id = $1", [id])
    return result.count > 0 ? result.bytes(0, 0) : []
  }

  public func latestSnapshot(
    user: Int64, beyond cursor: ServerCursor?, excluding excluded: String?
  ) throws -> SnapshotRecord? {
    try read {
      let result = try connection.query(
        """
        SELECT id, name, device, created, covers, sha256, size FROM snapshots
        WHERE user_id = $1 ORDER BY id DESC
        """, [user])
      return try StoreRules.latestSnapshot(
        result.map { PostgresStore.snapshotRecord(result, $0) }, beyond: cursor,
        excluding: excluded,
        anyNewer: { position in
          try connection.query(
            """
            SELECT 1 FROM batches WHERE user_id = $1 AND cursor > $2
              AND device IS DISTINCT FROM $3 LIMIT 1
            """, [user, position, excluded]
          ).count > 0
        },
        reaches: { device, floor, seq, position in
          try connection.query(
            """
            SELECT 1 FROM batches WHERE user_id = $1 AND device = $2 AND seq > $3 AND seq <= $4
              AND cursor > $5 LIMIT 1
            """, [user, device, floor, seq, position]
          ).count > 0
        })
    }
  }

  private static func snapshotRecord(_ result: PostgresResult, _ row: Int) -> SnapshotRecord {
    SnapshotRecord(
      id: result.int64(row, 0), name: result.text(row, 1), device: result.text(row, 2),
      created: result.int64(row, 3),
      covers: (try? VersionVector(parsing: result.text(row, 4))) ?? VersionVector(),
      sha256: result.text(row, 5), size: result.int(row, 6))
  }
}
