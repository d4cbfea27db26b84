import LifelogCore
import LifelogProtocol
import LifelogSQLite

extension SQLiteServerStore {
  /// Stores batches in one transaction (the server commits concurrent pushes together), each
  /// under the next cursor of its user (`users.last_cursor`).
  ///
  /// A name already taken keeps what it holds: the same bytes are ``StoreOutcome/exists(cursor:)``
  /// (also after the batch was compacted away), another intact batch is ``StoreOutcome/conflict``.
  /// A stored copy that is damaged is replaced by the verified push under the same cursor
  /// (``StoreRules/compare(_:storedTrailer:storedBytes:)``): a device's batches stay in seq order,
  /// and a client that held the damaged batch back reads it again from where it left off.
  public func store(_ batches: [IncomingBatch]) throws -> [StoreOutcome] {
    let received = ServerClock.milliseconds()
    return try write {
      let find = try database.cachedStatement(
        sql:
          "SELECT cursor, trailer, bytes FROM batches WHERE user_id = ? AND device = ? AND seq = ?")
      let next = try database.cachedStatement(
        sql: "UPDATE users SET last_cursor = last_cursor + 1 WHERE id = ? RETURNING last_cursor")
      let insert = try database.cachedStatement(
        sql: """
          INSERT INTO batches (user_id, cursor, device, seq, trailer, size, rows, received, bytes)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          """)
      let replace = try database.cachedStatement(
        sql: """
          UPDATE batches SET trailer = ?, size = ?, rows = ?, received = ?, bytes = ?
          WHERE user_id = ? AND device = ? AND seq = ?
          """)
      var outcomes: [StoreOutcome] = []
      outcomes.reserveCapacity(batches.count)
      for batch in batches {
        let trailer = batch.trailer
        let found = try find.first([batch.user, batch.device, batch.seq]) {
          ($0[0] as Int64, $0[1] as String, $0[2] as [UInt8]?)
        }
        if let (cursor, storedTrailer, storedBytes) = found {
          switch StoreRules.compare(batch, storedTrailer: storedTrailer, storedBytes: storedBytes) {
          case .same:
            outcomes.append(.exists(cursor: cursor))
          case .conflict:
            outcomes.append(.conflict)
          case .damaged:
            try replace.execute([
              trailer, batch.bytes.count, batch.rows, received, batch.bytes, batch.user,
              batch.device, batch.seq,
            ])
            outcomes.append(.created(cursor: cursor))
          }
          continue
        }
        // No user row to take a cursor from: removed since the request was authenticated.
        guard let cursor = try next.first([batch.user], { $0[0] as Int64 }) else {
          outcomes.append(.userRemoved)
          continue
        }
        try insert.execute([
          batch.user, cursor, batch.device, batch.seq, trailer, batch.bytes.count, batch.rows,
          received, batch.bytes,
        ])
        outcomes.append(.created(cursor: cursor))
      }
      return outcomes
    }
  }

  /// How many batches of `device` the user has stored and not compacted, and the highest seq ever stored.
  ///
  /// `IS NOT NULL` is answered from the record header; `count(bytes)` would read every blob.
  public func batchCount(user: Int64, device: String) throws -> (count: Int, highestSeq: Int) {
    try database.cachedStatement(
      sql: """
        SELECT count(*) FILTER (WHERE bytes IS NOT NULL), coalesce(max(seq), 0) FROM batches
        WHERE user_id = ? AND device = ?
        """
    ).first([user, device]) { ($0[0] as Int, $0[1] as Int) } ?? (0, 0)
  }

  /// Deletes the bytes of `device`'s batches through `seq` (the records stay, so a late re-push of
  /// the same batch is still recognised and the cursor never moves back).
  ///
  /// - Throws: ``HTTPError`` 409 unless one of the user's snapshots covers them all.
  public func deleteBatches(user: Int64, device: String, through seq: Int) throws -> Int {
    try write {
      let covers = try database.cachedStatement(
        sql: "SELECT covers FROM snapshots WHERE user_id = ?"
      ).map([user]) { $0[0] as String }
      try StoreRules.checkCovered(device: device, through: seq, by: covers)
      try database.execute(
        sql:
          "UPDATE batches SET bytes = NULL WHERE user_id = ? AND device = ? AND seq <= ? AND bytes IS NOT NULL",
        arguments: [user, device, seq])
      return database.changes
    }
  }

  /// The batches of devices other than `excluded` after `cursor`, in server order (docs/http-api.md).
  public func changes(
    user: Int64, after cursor: ServerCursor, excluding excluded: String?, limits: PageLimits
  ) throws
    -> ChangesPage
  {
    try read {
      let scan = try database.cachedStatement(
        sql: """
          SELECT cursor, device, seq, rows, size, bytes IS NULL FROM batches
          WHERE user_id = ? AND cursor > ? ORDER BY cursor LIMIT ?
          """)
      let load = try database.cachedStatement(
        sql: "SELECT bytes FROM batches WHERE user_id = ? AND cursor = ?")
      return try PageFilling.page(
        after: cursor, excluding: excluded, limits: limits,
        scan: { position, count in
          try scan.map([user, position, count]) {
            ScannedBatch(
              cursor: $0[0], device: $0[1], seq: $0[2], rows: $0[3], size: $0[4], compacted: $0[5])
          }
        },
        load: { cursors in
          try cursors.map { try load.first([user, $0]) { $0[0] as [UInt8] } ?? [] }
        })
    }
  }
}
