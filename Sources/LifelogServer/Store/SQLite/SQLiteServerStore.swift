@preconcurrency import Glibc
import LifelogCore
import LifelogSQLite

/// The server's database (`<data>/server.db`): users, batches and snapshots.
///
/// Users are kept with the SHA-256 of their token, batches under a server cursor counted per user
/// (`users.last_cursor`, as on PostgreSQL), and each user's
/// key envelopes (an encrypted remote's wrapped data key) as opaque bytes. One connection; the server keeps a pool of them
/// (``StorePool``), and `lifelog serve user …` opens its own beside a running server.
///
/// WAL with `synchronous = FULL`: once a write transaction has committed, it is on disk, so a
/// batch is acknowledged only after that (docs/http-api.md, "Durability").
public final class SQLiteServerStore {
  public let database: Database
  public let path: String

  /// The schema version this lifelog writes (`PRAGMA user_version`).
  static var schemaVersion: Int { migrations.count }

  /// Opens the store in `folder`, creating the folder (0700) and the database (0600) when missing.
  ///
  /// - Throws: ``ServerStoreError`` when the folder or file cannot be used, or was written by a
  ///   newer lifelog.
  public convenience init(folder: String) throws {
    try SQLiteServerStore.createFolder(folder)
    try self.init(path: folder + "/server.db")
  }

  /// Opens the database at `path` (`:memory:` for tests).
  ///
  /// A symbolic link at `path` is refused, not followed: planted there, it would have the server
  /// create or write the file it names.
  public init(path: String) throws {
    self.path = path
    do {
      if path != ":memory:" {
        let descriptor = open(path, O_CREAT | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
          let reason =
            errno == ELOOP
            ? "it is a symbolic link, which lifelog does not follow (remove it)"
            : String(cString: strerror(errno))
          throw ServerStoreError.cannotOpen(path: path, reason: reason)
        }
        close(descriptor)
      }
      database = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 10_000)
      try database.execute(
        sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA cache_size = -32768")
      try migrate()
    } catch let error as SQLiteError {
      throw ServerStoreError.cannotOpen(path: path, reason: error.description)
    }
  }

  /// Brings the schema up to ``schemaVersion``, one recorded step at a time.
  private func migrate() throws {
    let version =
      try database.cachedStatement(sql: "PRAGMA user_version").first { $0[0] as Int } ?? 0
    guard version <= SQLiteServerStore.schemaVersion else {
      throw ServerStoreError.newerSchema(path: path)
    }
    if version == SQLiteServerStore.schemaVersion { return }
    try database.inTransaction {
      // Another process may have migrated while this one waited for the lock.
      let again =
        try database.cachedStatement(sql: "PRAGMA user_version").first { $0[0] as Int } ?? 0
      for step in SQLiteServerStore.migrations.dropFirst(again) {
        try database.execute(sql: step)
      }
      try database.execute(sql: "PRAGMA user_version = \(SQLiteServerStore.schemaVersion)")
    }
  }

  /// The schema, one step per version: a database at version `n` has run the first `n` steps.
  static let migrations = [
    // 1: users, batches, snapshots
    """
    CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      token_sha256 TEXT NOT NULL UNIQUE,
      remote_id TEXT NOT NULL,
      created INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE batches (
      cursor INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER NOT NULL,
      device TEXT NOT NULL,
      seq INTEGER NOT NULL,
      trailer TEXT NOT NULL,
      size INTEGER NOT NULL,
      rows INTEGER NOT NULL,
      received INTEGER NOT NULL,
      bytes BLOB,
      UNIQUE (user_id, device, seq)
    ) STRICT;
    CREATE INDEX batches_by_user_cursor ON batches (user_id, cursor);
    CREATE TABLE snapshots (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      device TEXT NOT NULL,
      created INTEGER NOT NULL,
      covers TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      size INTEGER NOT NULL,
      received INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      UNIQUE (user_id, name)
    ) STRICT;
    """,
    // 2: key envelopes of encrypted remotes
    """
    CREATE TABLE key_envelopes (
      user_id INTEGER NOT NULL,
      version INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      received INTEGER NOT NULL,
      PRIMARY KEY (user_id, version)
    ) STRICT;
    """,
    // 3: server cursors per user (one AUTOINCREMENT shared by all users showed each user how
    // much the others pushed, and when). Every stored batch keeps its cursor and each user's
    // counter starts at their highest, so a cursor a client holds stays valid: nothing of its
    // user lies at or below it that it has not passed, and everything new comes above it.
    """
    ALTER TABLE users ADD COLUMN last_cursor INTEGER NOT NULL DEFAULT 0;
    UPDATE users SET last_cursor =
      coalesce((SELECT max(cursor) FROM batches WHERE batches.user_id = users.id), 0);
    CREATE TABLE batches_per_user (
      user_id INTEGER NOT NULL,
      cursor INTEGER NOT NULL,
      device TEXT NOT NULL,
      seq INTEGER NOT NULL,
      trailer TEXT NOT NULL,
      size INTEGER NOT NULL,
      rows INTEGER NOT NULL,
      received INTEGER NOT NULL,
      bytes BLOB,
      PRIMARY KEY (user_id, cursor),
      UNIQUE (user_id, device, seq)
    ) STRICT;
    INSERT INTO batches_per_user (user_id, cursor, device, seq, trailer, size, rows, received, bytes)
      SELECT user_id, cursor, device, seq, trailer, size, rows, received, bytes FROM batches;
    DROP TABLE batches;
    ALTER TABLE batches_per_user RENAME TO batches;
    """,
    // 4: paired devices and their one-time pairing codes
    DeviceSQL.tables(integer: "integer", strict: " STRICT"),
    // 5: shared reports (ciphertext only)
    ShareRules.tables(integer: "integer", blob: "blob", strict: " STRICT"),
  ]

  /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`).
  func write<T>(_ body: () throws -> T) throws -> T { try database.inTransaction(body) }

  /// Runs `body` against one consistent snapshot of the database.
  func read<T>(_ body: () throws -> T) throws -> T { try database.inReadTransaction(body) }

  private static func createFolder(_ folder: String) throws {
    var prefix = folder.hasPrefix("/") ? "/" : ""
    for component in folder.split(separator: "/") {
      prefix += component
      if mkdir(prefix, 0o700) != 0, errno != EEXIST {
        throw ServerStoreError.cannotOpen(path: prefix, reason: String(cString: strerror(errno)))
      }
      prefix += "/"
    }
  }
}

extension SQLiteServerStore: ServerStorage {
  /// A SQLite file does not go away while it is open.
  public var isBroken: Bool { false }

  /// One read transaction: each one takes and drops SQLite's locks (`fcntl`, `fstat`), so a
  /// request that reads twice (its token, then its page) reads in one.
  public func reading<T>(_ body: () throws -> T) throws -> T { try read(body) }
}

/// Why the server's store cannot be used.
public enum ServerStoreError: Error, Equatable, CustomStringConvertible {
  case cannotOpen(path: String, reason: String)
  case newerSchema(path: String)
  /// A PostgreSQL store (`url` without its password) cannot be reached.
  case cannotConnect(url: String, reason: String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      "Cannot open the server's data at '\(path)': \(reason); check --data and its permissions"
    case .newerSchema(let path):
      "'\(path)' was written by a newer lifelog; upgrade lifelog to serve it"
    case .cannotConnect(let url, let reason):
      "Cannot use the PostgreSQL store '\(url)': \(reason); check --store, that the database "
        + "runs and takes connections, and the password (in the URL, PGPASSWORD or ~/.pgpass)"
    }
  }
}
