import LifelogCore
import LifelogSQLite
import LifelogSync

/// A verified batch waiting to be stored.
public struct IncomingBatch: Sendable {
  public var user: Int64
  public var device: String
  public var seq: Int
  public var bytes: [UInt8]
  public var sha256: String
  /// How many row changes it holds.
  public var rows: Int

  public init(user: Int64, device: String, seq: Int, bytes: [UInt8], sha256: String, rows: Int) {
    self.user = user
    self.device = device
    self.seq = seq
    self.bytes = bytes
    self.sha256 = sha256
    self.rows = rows
  }
}

/// What storing a batch did.
public enum StoreOutcome: Equatable, Sendable {
  /// Stored now, under this server cursor.
  case created(cursor: Int64)
  /// The same bytes were already stored under this cursor.
  case exists(cursor: Int64)
  /// Different bytes are stored under the name.
  case conflict
}

/// One page of `GET /v1/changes`.
public struct ChangesPage: Sendable {
  public struct Item: Sendable {
    public var device: String
    public var seq: Int
    public var cursor: Int64
    public var rows: Int
    public var bytes: [UInt8]
  }

  public var items: [Item]
  /// Where the next page starts.
  public var cursor: ServerCursor
  /// Whether another page is waiting now.
  public var more: Bool
  /// The page stopped before a deleted (compacted) batch that no snapshot the client merged
  /// covers: the client must merge a snapshot (`GET /v1/snapshots/latest`) before going on.
  public var needsSnapshot: Bool
}

/// How big a page of changes may get.
public struct PageLimits: Sendable {
  public var batches: Int
  public var rows: Int
  public var bytes: Int
  /// Batch records looked at per request, counting those skipped.
  public var scanned: Int

  public init(batches: Int = 1000, rows: Int = 5000, bytes: Int = 4 << 20, scanned: Int = 10_000) {
    self.batches = batches
    self.rows = rows
    self.bytes = bytes
    self.scanned = scanned
  }
}

extension ServerStore {
  /// Stores batches in one transaction (the server commits concurrent pushes together).
  ///
  /// A name already taken keeps what it holds: the same SHA-256 is ``StoreOutcome/exists(cursor:)``
  /// (also after the batch was compacted away), another is ``StoreOutcome/conflict``.
  public func store(_ batches: [IncomingBatch]) throws -> [StoreOutcome] {
    let received = ServerStore.now()
    return try write {
      let find = try database.cachedStatement(
        sql: "SELECT cursor, sha256 FROM batches WHERE user_id = ? AND device = ? AND seq = ?")
      let insert = try database.cachedStatement(
        sql: """
          INSERT INTO batches (user_id, device, seq, sha256, size, rows, received, bytes)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING cursor
          """)
      var outcomes: [StoreOutcome] = []
      outcomes.reserveCapacity(batches.count)
      for batch in batches {
        if let (cursor, sha) = try find.first([batch.user, batch.device, batch.seq], { ($0[0] as Int64, $0[1] as String) }) {
          outcomes.append(sha == batch.sha256 ? .exists(cursor: cursor) : .conflict)
          continue
        }
        let cursor = try insert.first([
          batch.user, batch.device, batch.seq, batch.sha256, batch.bytes.count, batch.rows, received, batch.bytes,
        ]) { $0[0] as Int64 } ?? 0
        outcomes.append(.created(cursor: cursor))
      }
      return outcomes
    }
  }

  /// How many batches of `device` the user has stored and not compacted, and the highest seq ever stored.
  public func batchCount(user: Int64, device: String) throws -> (count: Int, highestSeq: Int) {
    try database.cachedStatement(
      sql: """
        SELECT count(bytes), coalesce(max(seq), 0) FROM batches WHERE user_id = ? AND device = ?
        """
    ).first([user, device]) { ($0[0] as Int, $0[1] as Int) } ?? (0, 0)
  }

  /// Deletes the bytes of `device`'s batches through `seq` (the records stay, so a late re-push of
  /// the same batch is still recognised and the cursor never moves back).
  ///
  /// - Throws: ``HTTPError`` 409 unless one of the user's snapshots covers them all.
  public func deleteBatches(user: Int64, device: String, through seq: Int) throws -> Int {
    try write {
      let covered = try database.cachedStatement(sql: "SELECT covers FROM snapshots WHERE user_id = ?").map([user]) { row in
        (try? VersionVector(parsing: row[0] as String))?[device] ?? 0
      }.max() ?? 0
      guard covered >= seq else {
        throw HTTPError(
          409, "not_covered",
          "No snapshot covers \(device)'s batches through \(seq) (the newest covers \(covered)); put a snapshot first")
      }
      try database.execute(
        sql: "UPDATE batches SET bytes = NULL WHERE user_id = ? AND device = ? AND seq <= ? AND bytes IS NOT NULL",
        arguments: [user, device, seq])
      return database.changes
    }
  }

  /// The batches of devices other than `excluded` after `cursor`, in server order (docs/http-api.md).
  public func changes(user: Int64, after cursor: ServerCursor, excluding excluded: String?, limits: PageLimits) throws
    -> ChangesPage
  {
    try read {
      var page = ChangesPage(items: [], cursor: cursor, more: false, needsSnapshot: false)
      let scan = try database.cachedStatement(
        sql: """
          SELECT cursor, device, seq, rows, size, bytes IS NULL FROM batches
          WHERE user_id = ? AND cursor > ? ORDER BY cursor LIMIT ?
          """)
      let load = try database.cachedStatement(sql: "SELECT bytes FROM batches WHERE cursor = ?")
      var rows = 0
      var bytes = 0
      var seen = 0
      var stopped = false
      try scan.forEachRow([user, cursor.position, limits.scanned + 1]) { row in
        seen += 1
        if stopped || seen > limits.scanned {
          if !stopped { page.more = true }
          stopped = true
          return
        }
        let position: Int64 = row[0]
        let device: String = row[1]
        let seq: Int = row[2]
        if device == excluded || seq <= cursor.floor[device] {
          page.cursor.position = position
          return
        }
        if row[5] as Bool {
          page.needsSnapshot = true
          stopped = true
          return
        }
        let batchRows: Int = row[3]
        let size: Int = row[4]
        if !page.items.isEmpty,
          page.items.count >= limits.batches || rows + batchRows > limits.rows || bytes + size > limits.bytes
        {
          page.more = true
          stopped = true
          return
        }
        let content = try load.first([position]) { $0[0] as [UInt8] } ?? []
        page.items.append(ChangesPage.Item(device: device, seq: seq, cursor: position, rows: batchRows, bytes: content))
        rows += batchRows
        bytes += size
        page.cursor.position = position
      }
      return page
    }
  }
}
