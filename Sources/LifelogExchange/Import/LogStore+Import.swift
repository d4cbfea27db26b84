import LifelogCore
import LifelogSQLite

/// How `lifelog import` treats its input.
public struct ImportOptions: Sendable {
  /// Reads each row's time as `lifelog add --at` would.
  public var parser: TimeParser
  /// The kind of an activity the import creates when the row names none.
  ///
  /// Nil: such a row is refused rather than filed under a guessed kind (an `other` lunch is
  /// no meal to `due` or the report).
  public var defaultKind: ActivityKind?
  /// Report what would happen, then roll everything back.
  public var dryRun = false
  /// Import the valid rows even when some are invalid (the others are listed, not imported).
  public var skipInvalid = false
  /// Recorded as the `source` of each entry whose row does not name one (the file name).
  public var source: String?

  public init(parser: TimeParser) { self.parser = parser }
}

/// What an import did (or, in a dry run, would do).
public struct ImportSummary: Sendable {
  /// How many invalid rows are listed in ``invalidRows``; the rest are only counted.
  public static let listedErrorLimit = 20

  public var added = 0
  public var updated = 0
  public var unchanged = 0
  /// The first ``listedErrorLimit`` invalid rows.
  public var invalidRows: [RowError] = []
  /// All invalid rows, listed or not.
  public var invalidCount = 0
  /// Activities the import created, in the order it met them.
  public var createdActivities: [Activity] = []

  public init() {}

  mutating func reject(_ error: RowError) {
    invalidCount += 1
    if invalidRows.count < ImportSummary.listedErrorLimit { invalidRows.append(error) }
  }
}

/// Some rows of an import are invalid and `--skip-invalid` was not given: nothing was written.
public struct ImportError: Error, Sendable {
  public let summary: ImportSummary
}

extension LogStore {
  /// Imports entries, all in one transaction: every valid row is added or updated, or nothing is.
  ///
  /// A row with an id creates or updates that entry, changing (and stamping for sync) only the
  /// fields that differ; a row without one gets an id derived from its content, so importing the
  /// same file twice adds nothing. Unknown activities are created. New and changed rows go
  /// through change capture like typed ones, so they sync.
  ///
  /// - Parameter progress: called with the number of rows read so far, every few thousand rows.
  /// - Throws: ``ImportError`` when rows are invalid and `skipInvalid` is off (nothing written);
  ///   ``InputError`` or ``InputFileError`` when the input as a whole is unusable.
  public func importEntries(
    from records: any ImportRecords, options: ImportOptions, progress: (Int) -> Void = { _ in }
  ) throws -> ImportSummary {
    var summary = ImportSummary()
    try database.execute(sql: "PRAGMA cache_size = -\(LogStore.importCacheKiB)")
    defer { try? database.execute(sql: "PRAGMA cache_size = -\(LogStore.cacheKiB)") }
    do {
      try write {
        let importer = try EntryImporter(store: self, options: options)
        let pipeline = RowPipeline(records: records, parser: options.parser)
        pipeline.start()
        defer { pipeline.finish() }
        var rows = 0
        while let batch = try pipeline.next() {
          for checked in batch {
            switch checked {
            case .invalid(let error): summary.reject(error)
            case .valid(let row, let id, let line):
              do {
                try importer.apply(row, id: id, to: &summary)
              } catch let error as InputError {
                summary.reject(RowError(line: line, message: error.message))
              }
            }
          }
          rows += batch.count
          progress(rows)
        }
        if options.dryRun || (summary.invalidCount > 0 && !options.skipInvalid) { throw Rollback() }
        try importer.queueAddedEntries()
      }
    } catch is Rollback {}
    if summary.invalidCount > 0 && !options.skipInvalid { throw ImportError(summary: summary) }
    return summary
  }

  private struct Rollback: Error {}

  /// The page cache of an import (KiB): half the everyday 64 MiB.
  ///
  /// On 1,000,000 rows (4 alternated runs each) it keeps the peak at 55 MB instead of 92–95 MB (134
  /// MB once, in a full `make bench`), against the 100 MB the import is held to, for about 5% more
  /// time (7.6 s against 7.2 s): the time goes to the random-id index and the WAL, not to cache
  /// misses.
  static let importCacheKiB = 32768
}

/// Writes import rows into the store, with its statements prepared once for the whole import.
private final class EntryImporter {
  let store: LogStore
  let options: ImportOptions
  /// One stamp for every row the import adds: they are one write.
  let stamp: String
  let insert: Statement
  /// The highest rowid of `entry` before the import: every row it adds gets a higher one.
  let lastRowIDBefore: Int64
  /// Activities by name as written in the file, then by their case-folded key.
  var activitiesByName: [String: Activity] = [:]
  /// The integer key of each activity id used so far (`entry.activity`).
  var activityKeys: [String: Int64] = [:]
  /// The entries earlier rows of the file took.
  let claims = ImportClaims()

  init(store: LogStore, options: ImportOptions) throws {
    self.store = store
    self.options = options
    stamp = try store.nextStamp()
    try store.noteBulkCreation(stamp: stamp)  // `lifelog undo` counts the added rows by it
    insert = try store.database.cachedStatement(
      sql: LogStore.insertEntrySQL + " ON CONFLICT (id) DO NOTHING")
    lastRowIDBefore = try store.lastEntryRowID()
  }

  /// Adds or updates the entry of one checked row.
  ///
  /// A row never takes an entry an earlier row of the file took: a row without an id moves on to
  /// the next ordinal among its equals; a row repeating another's id is refused.
  func apply(_ valid: ValidImportRow, id plainID: String, to summary: inout ImportSummary) throws {
    let activity = try resolveActivity(valid, summary: &summary)
    let source = valid.source ?? options.source
    let key = try activityKey(for: activity.id)
    var ordinal = valid.id == nil ? claims.firstOrdinal(for: plainID) : 1
    var id = ordinal == 1 ? plainID : valid.derivedID(ordinal: ordinal)
    while true {
      try LogStore.runEntryInsert(
        insert,
        NewEntry(
          id: id, activityID: activity.id, time: valid.time, duration: valid.duration,
          note: valid.note, quantity: valid.quantity, tags: valid.tags, source: source),
        activityKey: key, stamp: stamp)
      let added = store.database.changes > 0
      let taken = try !added && takenByThisImport(id)
      guard !taken else {
        guard valid.id == nil else {
          throw InputError(
            "id '\(id)' is on an earlier row of the file too; give each row its own id")
        }
        ordinal += 1
        id = valid.derivedID(ordinal: ordinal)
        continue
      }
      if valid.id == nil { claims.took(ordinal, for: plainID) }
      if added {
        summary.added += 1  // queued for sync by queueAddedEntries(), in the same transaction
        return
      }
      claims.match(id)
      break
    }
    if try update(id: id, activityID: activity.id, key: key, with: valid) {
      summary.updated += 1
    } else {
      summary.unchanged += 1
    }
  }

  /// Whether a row of this import already took the entry `id`: added it (its rowid is above
  /// every rowid from before the import) or matched it.
  private func takenByThisImport(_ id: String) throws -> Bool {
    if claims.isMatched(id) { return true }
    let rowID = try store.database.cachedStatement(
      sql: "SELECT rowid FROM entry WHERE \(SyncedEntity.entry.idMatch())"
    ).first([id]) { $0[0] as Int64 }
    return (rowID ?? 0) > lastRowIDBefore
  }

  /// Queues every entry the import added to be sent on the next sync, with one statement instead of
  /// one per row.
  ///
  /// Call before the transaction commits.
  func queueAddedEntries() throws {
    try store.queueEntries(addedAfter: lastRowIDBefore)
    try store.markEntriesAddedOutsideAStep()
  }

  private func activityKey(for id: String) throws -> Int64 {
    if let key = activityKeys[id] { return key }
    let key = try store.activityKey(for: id)
    activityKeys[id] = key
    return key
  }

  /// The row's activity, created (with the row's kind, or the default) when it is new.
  private func resolveActivity(
    _ row: ValidImportRow, summary: inout ImportSummary
  ) throws -> Activity {
    let activity: Activity
    if let known = activitiesByName[row.activity] {
      activity = known
    } else if let existing = try store.activity(named: row.activity) {
      activity = existing
      activitiesByName[row.activity] = existing
    } else {
      guard let kind = row.kind ?? options.defaultKind else {
        throw InputError(
          "activity '\(row.activity)' is new and the row gives no kind; pass --kind meal (or "
            + "exercise, sleep, medication, other), add a kind column, or create it first "
            + "with 'lifelog activity add'")
      }
      activity = try store.addActivity(named: row.activity, kind: kind, unit: row.unit)
      activitiesByName[row.activity] = activity
      summary.createdActivities.append(activity)
      return activity
    }
    if let kind = row.kind, kind != activity.kind {
      throw InputError(
        "activity '\(activity.name)' is \(activity.kind.rawValue), not \(kind.rawValue); "
          + "fix the kind or leave it empty")
    }
    return activity
  }

  /// Updates an existing entry's fields that differ from the row; false when none do.
  private func update(
    id: String, activityID: String, key: Int64, with row: ValidImportRow
  ) throws -> Bool {
    let database = store.database
    guard
      let current = try database.cachedStatement(
        sql:
          """
          SELECT k.id, e.at, e.tz_offset, e.duration, e.note, e.quantity, e.tags
          FROM \(LogStore.entrySource) WHERE e.\(SyncedEntity.entry.idMatch())
          """
      ).first(
        [id],
        { row -> [String] in
          [
            row[0], "\(row[1] as Int64) \(row[2] as Int)", (row[3] as Int?).map(String.init) ?? "",
            row[4] as String? ?? "", (row[5] as Double?).map(JSONText.number) ?? "", row[6],
          ]
        })
    else { return false }
    let wanted = [
      activityID, "\(row.time.instant) \(row.time.offsetMinutes)",
      row.duration.map(String.init) ?? "",
      row.note ?? "", row.quantity.map(JSONText.number) ?? "", row.tags.joined(separator: " "),
    ]
    let names = ["activity", "at", "duration", "note", "quantity", "tags"]
    let fields = names.indices.filter { current[$0] != wanted[$0] }.map { names[$0] }
    guard !fields.isEmpty else { return false }
    try database.execute(
      sql: """
        UPDATE entry SET activity = ?, at = ?, tz_offset = ?, duration = ?, note = ?, quantity = ?,
          tags = ? WHERE \(SyncedEntity.entry.idMatch())
        """,
      arguments: [
        key, row.time.instant, row.time.offsetMinutes, row.duration, row.note, row.quantity,
        row.tags.joined(separator: " "), id,
      ])
    try store.restamp(.entry, id: id, fields: fields, with: stamp)
    return true
  }
}
