@preconcurrency import Glibc
import LifelogSQLite

/// Schema v2: what sync needs (docs/design.md §3).
///
/// Per-field stamps on every synced row, this device's identity and hybrid logical clock, the
/// pending-change queue, the outbox of batches, the version vector of batches merged here, and the
/// configured remotes.
enum SyncMigration {
  @Sendable static func apply(_ database: Database) throws {
    try database.execute(
      sql: """
        ALTER TABLE activity ADD COLUMN stamps TEXT NOT NULL DEFAULT '';
        ALTER TABLE entry ADD COLUMN stamps TEXT NOT NULL DEFAULT '';
        ALTER TABLE setting ADD COLUMN stamps TEXT NOT NULL DEFAULT '';
        CREATE TABLE sync_device (
          singleton INTEGER PRIMARY KEY NOT NULL CHECK (singleton = 1),
          id TEXT NOT NULL,
          name TEXT NOT NULL,
          clock_ms INTEGER NOT NULL,
          clock_counter INTEGER NOT NULL,
          last_seq INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        CREATE TABLE sync_pending (
          position INTEGER PRIMARY KEY NOT NULL,
          entity TEXT NOT NULL,
          id TEXT NOT NULL
        ) STRICT;
        CREATE TABLE sync_outbox (
          seq INTEGER PRIMARY KEY NOT NULL,
          body BLOB NOT NULL
        ) STRICT;
        CREATE TABLE sync_applied (
          device TEXT PRIMARY KEY NOT NULL,
          seq INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE sync_remote (
          name TEXT PRIMARY KEY NOT NULL,
          url TEXT NOT NULL,
          remote_id TEXT NOT NULL,
          cursor TEXT NOT NULL DEFAULT '',
          pushed_seq INTEGER NOT NULL DEFAULT 0,
          snapshot TEXT NOT NULL DEFAULT '',
          last_sync_at INTEGER,
          last_outcome TEXT,
          skipped TEXT NOT NULL DEFAULT '',
          clock_skew_ms INTEGER NOT NULL DEFAULT 0,
          token TEXT
        ) STRICT;
        """)
    let now = LogStore.systemMilliseconds()
    let device = UUIDText.random()
    try database.execute(
      sql:
        "INSERT INTO sync_device (singleton, id, name, clock_ms, clock_counter) VALUES (1, ?, ?, ?, 0)",
      arguments: [device, hostName(), now])
    // Rows written before sync existed get one stamp from now and wait to be sent, except default
    // activities nobody changed: every new log has those, so they keep the oldest stamp.
    let stamp = Stamp.make(milliseconds: now, counter: 0, device: device)
    try database.execute(sql: "UPDATE entry SET stamps = ?", arguments: [stamp])
    try database.execute(sql: "UPDATE setting SET stamps = ?", arguments: [stamp])
    try database.execute(
      sql: "INSERT INTO sync_pending (entity, id) SELECT 'entry', id FROM entry", arguments: [])
    try database.execute(
      sql: "INSERT INTO sync_pending (entity, id) SELECT 'setting', key FROM setting", arguments: []
    )
    let defaults = Activity.defaults.map {
      "('\(ActivityName.derivedID(for: $0.name))', '\($0.name)', '\($0.kind.rawValue)')"
    }
    try database.execute(
      sql: """
        WITH pristine (id, name, kind) AS (VALUES \(defaults.joined(separator: ", ")))
        UPDATE activity SET stamps = ? WHERE id NOT IN (
          SELECT a.id FROM activity a JOIN pristine p ON p.id = a.id AND p.name = a.name AND p.kind = a.kind
          WHERE a.unit IS NULL AND a.target IS NULL AND a.archived = 0 AND a.deleted = 0)
        """, arguments: [stamp])
    try database.execute(
      sql:
        "INSERT INTO sync_pending (entity, id) SELECT 'activity', id FROM activity WHERE stamps != ''",
      arguments: [])
  }

  /// This machine's name, for `lifelog status`.
  static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return "unknown" }
    return String(cString: buffer)
  }
}
