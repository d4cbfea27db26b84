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
