import LifelogSQLite

/// One forward-only step of the schema, identified by a name recorded once it has run.
///
/// Migrations are never edited once released; a new schema change is a new migration appended to
/// ``Migration/all``.
struct Migration: Sendable {
  let identifier: String
  let apply: @Sendable (Database) throws -> Void
  /// Whether the file is rewritten (`VACUUM`) once the migration has committed: one that copies
  /// a large table leaves the old copy's pages free, as large as the table was.
  var compactsAfterward = false

  /// Every migration, oldest first. (v3: the data key of each encrypted remote, docs/security.md,
  /// kept in the log, which only its owner can read; never the passphrase.)
  static let all: [Migration] = [
    Migration(identifier: "v1-initial", apply: createInitialSchema),
    Migration(identifier: "v2-sync", apply: SyncMigration.apply),
    Migration(
      identifier: "v3-remote-keys", sql: "ALTER TABLE sync_remote ADD COLUMN data_key BLOB"),
    Migration(identifier: "v4-local-undo-remind", sql: RhythmMigration.sql),
    Migration(
      identifier: "v5-compact-keys", sql: CompactKeysMigration.sql, compactsAfterward: true),
    Migration(identifier: "v6-replaced-fields", sql: ReplacedFieldsMigration.sql),
    Migration(identifier: "v7-one-row-undo", sql: OneRowUndoMigration.sql),
    Migration(identifier: "v8-add-step-in-entry", sql: AddStepMigration.sql),
  ]

  /// How many migrations a log has when its undo steps keep their rows and clock in one row and
  /// its entries are queued by position (``OneRowUndoMigration``).
  static let oneRowUndoCount = 7

  /// How many migrations a log has when an `add`'s undo step is kept in its entry's row
  /// (``AddStepMigration``).
  static let addStepInEntryCount = 8

  /// The columns v1 gave an entry after its id and activity, in order; v5's `entry` kept them
  /// as they were (``CompactKeysMigration``), so both say them with this one text.
  static let entryValueColumns = """
    at INTEGER NOT NULL,
    tz_offset INTEGER NOT NULL,
    duration INTEGER CHECK (duration IS NULL OR duration >= 0),
    note TEXT,
    quantity REAL,
    tags TEXT NOT NULL DEFAULT '',
    source TEXT,
    deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
    """

  private static func createInitialSchema(_ database: Database) throws {
    try database.execute(
      sql: """
        CREATE TABLE activity (
          id TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL,
          name_key TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('meal', 'exercise', 'sleep', 'medication', 'other')),
          unit TEXT,
          target TEXT,
          archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
          deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
        ) STRICT;
        CREATE INDEX activity_by_name ON activity(name_key);
        CREATE TABLE entry (
          id TEXT PRIMARY KEY NOT NULL,
          activity_id TEXT NOT NULL,
          \(entryValueColumns)
        ) STRICT;
        CREATE INDEX entry_by_time ON entry(at);
        CREATE INDEX entry_by_activity ON entry(activity_id, at);
        CREATE TABLE setting (
          key TEXT PRIMARY KEY NOT NULL,
          value TEXT NOT NULL
        ) STRICT;
        """)
    let insert = try database.cachedStatement(
      sql: "INSERT INTO activity (id, name, name_key, kind) VALUES (?, ?, ?, ?)")
    for (name, kind) in Activity.defaults {
      try insert.execute([
        ActivityName.derivedID(for: name), name, ActivityName.key(name), kind.rawValue,
      ])
    }
  }
}

extension Migration {
  /// A migration that is one SQL script, run as it is.
  init(identifier: String, sql: String, compactsAfterward: Bool = false) {
    self.init(
      identifier: identifier, apply: { try $0.execute(sql: sql) },
      compactsAfterward: compactsAfterward)
  }
}

/// Brings a database up to the newest schema, one migration per transaction.
struct Migrator {
  let database: Database
  let path: String

  /// The identifiers of the migrations already applied, read in one `PRAGMA` when the log says
  /// it has exactly the ones this lifelog knows.
  ///
  /// Each migration also records how many have run in `PRAGMA user_version` (the file header),
  /// so a log that is up to date is recognised without looking up and reading the migrations
  /// table; any other count (an older log, a log from before the count was kept, a newer
  /// lifelog's) is checked against the table, by name.
  func appliedOnOpening() throws -> [String] {
    let recorded: Int =
      try database.cachedStatement(sql: "PRAGMA user_version").first { $0[0] } ?? 0
    if recorded == Migration.all.count { return Migration.all.map(\.identifier) }
    return try appliedIdentifiers()
  }

  /// The identifiers of the migrations already applied.
  func appliedIdentifiers() throws -> [String] {
    guard try database.tableExists("lifelog_migrations") else { return [] }
    return try database.cachedStatement(sql: "SELECT identifier FROM lifelog_migrations").map {
      $0[0]
    }
  }

  /// Refuses a database that has migrations this lifelog does not know, before touching it.
  func checkNotNewer(applied: [String]) throws {
    let known = Set(Migration.all.map(\.identifier))
    let unknown = applied.filter { !known.contains($0) }
    if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknownMigrations: unknown) }
  }

  /// Applies every pending migration; each runs in its own transaction and re-checks, inside the
  /// lock, that no other process applied it first.
  func migrate(upTo count: Int = Migration.all.count) throws {
    try database.execute(
      sql:
        "CREATE TABLE IF NOT EXISTS lifelog_migrations (identifier TEXT PRIMARY KEY NOT NULL) STRICT"
    )
    var compacts = false
    for migration in Migration.all.prefix(count) {
      try database.inTransaction {
        let applied = try appliedIdentifiers()
        try checkNotNewer(applied: applied)
        guard !applied.contains(migration.identifier) else { return }
        try migration.apply(database)
        try database.execute(
          sql: "INSERT INTO lifelog_migrations (identifier) VALUES (?)",
          arguments: [migration.identifier])
        // Only this lifelog's migrations are applied (checked above): their count names them.
        try database.execute(sql: "PRAGMA user_version = \(applied.count + 1)")
        compacts = compacts || migration.compactsAfterward
      }
    }
    // Outside any transaction, as SQLite requires. The migrated log is already whole and
    // committed, so a VACUUM that cannot run now (another process reading) only leaves the free
    // pages for later writes to reuse.
    if compacts { try? database.execute(sql: "VACUUM") }
  }
}
