import LifelogProtocol

extension PostgresStore {
  /// Stores batches in one transaction, under cursors taken from each user's row.
  ///
  /// Each batch's statement raises its user's `last_cursor` and inserts the batch under the new
  /// value; the update locks the user's row until the commit, so another transaction storing a
  /// batch of that user waits, then takes a larger cursor. So a user's cursors become visible in
  /// increasing order, and a pull that has seen cursor N has seen every batch below N that will
  /// ever exist (docs/http-api.md, "PostgreSQL"). The batches go in user id order, so two
  /// processes storing batches of the same users lock their rows in the same order and cannot
  /// deadlock. A batch whose name is taken leaves its cursor unused: a gap, which no reader minds.
  /// A name taken by a damaged copy is repaired in place, as on SQLite (``SQLiteServerStore/store(_:)``).
  public func store(_ batches: [IncomingBatch]) throws -> [StoreOutcome] {
    try store(batches, beforeCommit: {})
  }

  /// ``store(_:)``, running `beforeCommit` in the transaction once the batches are in (where
  /// tests hold a transaction open while another commits).
  func store(_ batches: [IncomingBatch], beforeCommit: () -> Void) throws -> [StoreOutcome] {
    let received = ServerClock.milliseconds()
    let order = batches.indices.sorted { (batches[$0].user, $0) < (batches[$1].user, $1) }
    return try write {
      var outcomes = [StoreOutcome](repeating: .conflict, count: batches.count)
      for index in order {
        let batch = batches[index]
        let trailer = batch.trailer
        let inserted = try connection.query(
          """
          WITH next AS (
            UPDATE users SET last_cursor = last_cursor + 1 WHERE id = $1 RETURNING last_cursor)
          INSERT INTO batches (user_id, cursor, device, seq, trailer, size, rows, received, bytes)
          SELECT $1, last_cursor, $2::text, $3::bigint, $4::text, $5::bigint, $6::bigint,
            $7::bigint, $8::bytea
          FROM next
          ON CONFLICT (user_id, device, seq) DO NOTHING RETURNING cursor
          """,
          [
            batch.user, batch.device, batch.seq, trailer, batch.bytes.count, batch.rows, received,
            batch.bytes,
          ])
        if inserted.count == 1 {
          outcomes[index] = .created(cursor: inserted.int64(0, 0))
          continue
        }
        // The name was taken (by this transaction, or one that committed): compare.
        let stored = try connection.query(
          """
          SELECT cursor, trailer, bytes FROM batches
          WHERE user_id = $1 AND device = $2 AND seq = $3 FOR UPDATE
          """,
          [batch.user, batch.device, batch.seq])
        guard stored.count == 1 else {
          // No user row to take a cursor from: removed since the request was authenticated.
          // Only this batch fails; the others in the transaction still commit.
          outcomes[index] = .userRemoved
          continue
        }
        let storedBytes = stored.isNull(0, 2) ? nil : stored.bytes(0, 2)
        switch StoreRules.compare(batch, storedTrailer: stored.text(0, 1), storedBytes: storedBytes)
        {
        case .same:
          outcomes[index] = .exists(cursor: stored.int64(0, 0))
        case .conflict:
          outcomes[index] = .conflict
        case .damaged:
          // Replaced under its cursor (the row is locked above), as on SQLite.
          try connection.query(
            """
            UPDATE batches SET trailer = $4::text, size = $5::bigint, rows = $6::bigint,
              received = $7::bigint, bytes = $8::bytea
            WHERE user_id = $1 AND device = $2::text AND seq = $3::bigint
            """,
            [
              batch.user, batch.device, batch.seq, trailer, batch.bytes.count, batch.rows,
              received, batch.bytes,
            ])
          outcomes[index] = .created(cursor: stored.int64(0, 0))
        }
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
