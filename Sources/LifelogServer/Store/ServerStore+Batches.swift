import LifelogCore
import LifelogSQLite
import LifelogSync

/// A verified batch waiting to be stored.
public struct IncomingBatch: Sendable {
  public var user: Int64
  public var device: String
  public var seq: Int
  public var bytes: [UInt8]
  /// How many row changes it holds.
  public var rows: Int

  /// A batch whose bytes `BatchCodec.decode` has verified.
  public init(user: Int64, device: String, seq: Int, bytes: [UInt8], rows: Int) {
    self.user = user
    self.device = device
    self.seq = seq
    self.bytes = bytes
    self.rows = rows
  }

  /// What tells two batches apart: the trailer line.
  ///
  /// It holds the SHA-256 of everything before
  /// it (checked when the batch was decoded), so two verified batches are the same bytes exactly
  /// when their trailers are, without hashing the batch a second time.
  public var trailer: String {
    let body = bytes.dropLast()
    let start = body.lastIndex(of: 0x0A).map { $0 + 1 } ?? body.startIndex
    return String(decoding: bytes[start...], as: UTF8.self)
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
  /// The user was removed while the batch waited to be committed (another server process removed
  /// them); nothing was stored. Answered 401 for this batch alone, not for the others committed
  /// with it.
  case userRemoved
}

extension StoreOutcome {
  /// The outcome without the cursor.
  public var put: PutOutcome {
    switch self {
    case .created: .created
    case .exists: .exists
    case .conflict, .userRemoved: .conflict  // the route answers .userRemoved with 401 first
    }
  }
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
  /// Stores batches in one transaction (the server commits concurrent pushes together), each
  /// under the next cursor of its user (`users.last_cursor`).
  ///
  /// A name already taken keeps what it holds: the same bytes are ``StoreOutcome/exists(cursor:)``
  /// (also after the batch was compacted away), another intact batch is ``StoreOutcome/conflict``.
  /// A stored copy that is damaged is replaced by the verified push under the same cursor
  /// (``StoreRules/compare(_:storedTrailer:storedBytes:)``): a device's batches stay in seq order,
  /// and a client that held the damaged batch back reads it again from where it left off.
  public func store(_ batches: [IncomingBatch]) throws -> [StoreOutcome] {
    let received = ServerStore.now()
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

/// One batch record, as a pull scans it (without its bytes).
struct ScannedBatch {
  var cursor: Int64
  var device: String
  var seq: Int
  var rows: Int
  var size: Int
  /// Its bytes were deleted by compaction.
  var compacted: Bool
}

/// What goes into a page of changes, record by record.
struct PageFilling {
  enum Decision { case skip, take, more, needsSnapshot }

  let cursor: ServerCursor
  let excluded: String?
  let limits: PageLimits
  private var rows = 0
  private var bytes = 0
  private var batches = 0
  private var scanned = 0

  init(cursor: ServerCursor, excluded: String?, limits: PageLimits) {
    self.cursor = cursor
    self.excluded = excluded
    self.limits = limits
  }

  /// Skip the reader's own batches and those a merged snapshot holds; stop before a compacted
  /// batch the reader does not hold, and when the page is full (it always takes one batch).
  mutating func decide(_ record: ScannedBatch, pageIsEmpty: Bool) -> Decision {
    if scanned == limits.scanned { return .more }
    scanned += 1
    if record.device == excluded || record.seq <= cursor.floor[record.device] { return .skip }
    if record.compacted { return .needsSnapshot }
    if !pageIsEmpty,
      batches >= limits.batches || rows + record.rows > limits.rows
        || bytes + record.size > limits.bytes
    {
      return .more
    }
    batches += 1
    rows += record.rows
    bytes += record.size
    return .take
  }
}

extension PageFilling {
  /// Records are read in chunks of this many, so a page that fills up early stops reading early.
  static let chunk = 128

  /// One page of changes after `cursor`: records come from `scan` (those after a cursor position,
  /// in cursor order, at most `count`), the bytes of those taken from `load` (in the order asked).
  static func page(
    after cursor: ServerCursor, excluding excluded: String?, limits: PageLimits,
    scan: (_ position: Int64, _ count: Int) throws -> [ScannedBatch],
    load: (_ cursors: [Int64]) throws -> [[UInt8]]
  ) throws -> ChangesPage {
    var page = ChangesPage(items: [], cursor: cursor, more: false, needsSnapshot: false)
    var filling = PageFilling(cursor: cursor, excluded: excluded, limits: limits)
    var stopped = false
    while !stopped {
      let records = try scan(page.cursor.position, chunk)
      if records.isEmpty { break }
      var taken: [ScannedBatch] = []
      for record in records {
        switch filling.decide(record, pageIsEmpty: page.items.isEmpty && taken.isEmpty) {
        case .skip: break
        case .take: taken.append(record)
        case .more: page.more = true
        case .needsSnapshot: page.needsSnapshot = true
        }
        if page.more || page.needsSnapshot {
          stopped = true
          break
        }
        page.cursor.position = record.cursor
      }
      for (record, bytes) in zip(taken, try load(taken.map(\.cursor))) {
        page.items.append(
          ChangesPage.Item(
            device: record.device, seq: record.seq, cursor: record.cursor, rows: record.rows,
            bytes: bytes))
      }
    }
    return page
  }
}
