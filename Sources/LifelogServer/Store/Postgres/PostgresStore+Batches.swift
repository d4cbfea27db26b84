import LifelogSync

extension PostgresStore {
  /// Stores batches in one transaction, under cursors taken from each user's row.
  ///
  /// The users' rows are locked first, in id order (so two processes committing batches of the
  /// same users cannot deadlock), and stay locked until the commit: another transaction that
  /// stores batches of one of these users waits, then takes larger cursors. So a user's cursors
  /// become visible in increasing order, and a pull that has seen cursor N has seen every batch
  /// below N that will ever exist (docs/http-api.md, "Several server processes").
  public func store(_ batches: [IncomingBatch]) throws -> [StoreOutcome] {
    try store(batches, beforeCommit: {})
  }

  /// ``store(_:)``, running `beforeCommit` in the transaction once the batches are in (where
  /// tests hold a transaction open while another commits).
  func store(_ batches: [IncomingBatch], beforeCommit: () -> Void) throws -> [StoreOutcome] {
    let received = ServerStore.now()
    return try write {
      var last: [Int64: Int64] = [:]
      for user in Set(batches.map(\.user)).sorted() {
        let row = try connection.query(
          "SELECT last_cursor FROM users WHERE id = $1 FOR UPDATE", [user])
        last[user] = row.count > 0 ? row.int64(0, 0) : 0
      }
      var outcomes: [StoreOutcome] = []
      outcomes.reserveCapacity(batches.count)
      for batch in batches {
        let cursor = (last[batch.user] ?? 0) + 1
        let trailer = batch.trailer
        let inserted = try connection.query(
          """
          INSERT INTO batches (user_id, cursor, device, seq, trailer, size, rows, received, bytes)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
          ON CONFLICT (user_id, device, seq) DO NOTHING RETURNING cursor
          """,
          [
            batch.user, cursor, batch.device, batch.seq, trailer, batch.bytes.count, batch.rows,
            received, batch.bytes,
          ])
        if inserted.count == 1 {
          last[batch.user] = cursor
          outcomes.append(.created(cursor: cursor))
          continue
        }
        // The name was taken (by this transaction, or one that committed): compare.
        let stored = try connection.query(
          "SELECT cursor, trailer FROM batches WHERE user_id = $1 AND device = $2 AND seq = $3",
          [batch.user, batch.device, batch.seq])
        guard stored.count == 1 else { throw PostgresError(state: "", message: "a batch vanished") }
        outcomes.append(
          stored.text(0, 1) == trailer ? .exists(cursor: stored.int64(0, 0)) : .conflict)
      }
      for (user, cursor) in last {
        try connection.query("UPDATE users SET last_cursor = $2 WHERE id = $1", [user, cursor])
      }
      beforeCommit()
      return outcomes
    }
  }

  public func batchCount(user: Int64, device: String) throws -> (count: Int, highestSeq: Int) {
    let result = try connection.query(
      """
      SELECT count(*) FILTER (WHERE bytes IS NOT NULL), coalesce(max(seq), 0) FROM batches
      WHERE user_id = $1 AND device = $2
      """, [user, device])
    return (result.int(0, 0), result.int(0, 1))
  }

  public func deleteBatches(user: Int64, device: String, through seq: Int) throws -> Int {
    try write {
      let covers = try connection.query(
        "SELECT covers FROM snapshots WHERE user_id = $1", [user])
      try StoreRules.checkCovered(
        device: device, through: seq, by: covers.map { covers.text($0, 0) })
      return try connection.query(
        """
        WITH emptied AS (
          UPDATE batches SET bytes = NULL
          WHERE user_id = $1 AND device = $2 AND seq <= $3 AND bytes IS NOT NULL RETURNING 1)
        SELECT count(*) FROM emptied
        """, [user, device, seq]
      ).int(0, 0)
    }
  }

  public func changes(
    user: Int64, after cursor: ServerCursor, excluding excluded: String?, limits: PageLimits
  ) throws -> ChangesPage {
    try read {
      try PageFilling.page(
        after: cursor, excluding: excluded, limits: limits,
        scan: { position, count in
          let result = try connection.query(
            """
            SELECT cursor, device, seq, rows, size, bytes IS NULL FROM batches
            WHERE user_id = $1 AND cursor > $2 ORDER BY cursor LIMIT $3
            """, [user, position, count])
          return result.map {
            ScannedBatch(
              cursor: result.int64($0, 0), device: result.text($0, 1), seq: result.int($0, 2),
              rows: result.int($0, 3), size: result.int($0, 4), compacted: result.bool($0, 5))
          }
        },
        load: { cursors in
          guard !cursors.isEmpty else { return [] }
          let result = try connection.query(
            "SELECT cursor, bytes FROM batches WHERE user_id = $1 AND cursor = ANY($2::bigint[])",
            [user, "{" + cursors.map(String.init).joined(separator: ",") + "}"])
          var bytes: [Int64: [UInt8]] = [:]
          for row in 0..<result.count { bytes[result.int64(row, 0)] = result.bytes(row, 1) }
          return cursors.map { bytes[$0] ?? [] }
        })
    }
  }
}
