@preconcurrency import Glibc
import LifelogCore

/// The server's data in PostgreSQL (`lifelog serve --store postgres://USER@HOST:PORT/DB`), so
/// several server processes can share one database.
///
/// Same tables and answers as the SQLite ``SQLiteServerStore``, with what several writers need
/// (docs/http-api.md, "Several server processes"):
/// * server cursors are per user, taken from the user's row (`users.last_cursor`) under its row
///   lock in the transaction that inserts the batches, so a user's batches commit in cursor order
///   and a reader can never pass a cursor whose batch commits later;
/// * pushes, snapshots and user names are claimed with `INSERT … ON CONFLICT DO NOTHING` on a
///   unique key, then compared, never read first and written after.
///
/// `synchronous_commit` is left to the database (on by default): a batch is acknowledged only
/// after its commit is on disk.
public final class PostgresStore: ServerStorage {
  let connection: PostgresConnection
  /// The URL without its password, for messages.
  public let location: String

  /// The schema version this lifelog writes (rows of `lifelog_server_migrations`).
  static var schemaVersion: Int { migrations.count }

  /// Connects to `url` and creates or migrates the schema.
  ///
  /// - Throws: ``ServerStoreError`` when the database cannot be reached or was written by a
  ///   newer lifelog.
  public init(url: String) throws {
    location = PostgresStore.redacted(url)
    do {
      connection = try PostgresConnection(url: url)
      try migrate()
    } catch let error as PostgresError {
      throw ServerStoreError.cannotConnect(url: location, reason: error.message)
    }
  }

  /// Migrations run one process at a time (a transaction-scoped advisory lock), each recorded
  /// with its version, so servers starting together agree on the schema.
  private func migrate() throws {
    try connection.transaction {
      try connection.execute(
        """
        SELECT pg_advisory_xact_lock(7411001);
        CREATE TABLE IF NOT EXISTS lifelog_server_migrations (
          version integer PRIMARY KEY, applied bigint NOT NULL)
        """)
      let version = try connection.query(
        "SELECT coalesce(max(version), 0)::bigint FROM lifelog_server_migrations"
      ).int(0, 0)
      guard version <= PostgresStore.schemaVersion else {
        throw ServerStoreError.newerSchema(path: location)
      }
      for (index, sql) in PostgresStore.migrations.enumerated() where index + 1 > version {
        try connection.execute(sql)
        try connection.query(
          "INSERT INTO lifelog_server_migrations (version, applied) VALUES ($1, $2)",
          [index + 1, ServerClock.milliseconds()])
      }
    }
  }

  /// One entry per schema version.
  static let migrations = [
    // 1: users (with the counter of their cursors), batches, snapshots
    """
    CREATE TABLE users (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL UNIQUE,
      token_sha256 text NOT NULL UNIQUE,
      remote_id text NOT NULL,
      created bigint NOT NULL,
      last_cursor bigint NOT NULL DEFAULT 0
    );
    CREATE TABLE batches (
      user_id bigint NOT NULL,
      cursor bigint NOT NULL,
      device text NOT NULL,
      seq bigint NOT NULL,
      trailer text NOT NULL,
      size bigint NOT NULL,
      rows bigint NOT NULL,
      received bigint NOT NULL,
      bytes bytea,
      PRIMARY KEY (user_id, cursor),
      UNIQUE (user_id, device, seq)
    );
    CREATE TABLE snapshots (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id bigint NOT NULL,
      name text NOT NULL,
      device text NOT NULL,
      created bigint NOT NULL,
      covers text NOT NULL,
      sha256 text NOT NULL,
      size bigint NOT NULL,
      received bigint NOT NULL,
      bytes bytea NOT NULL,
      UNIQUE (user_id, name)
    );
    """,
    // 2: key envelopes of encrypted remotes
    """
    CREATE TABLE key_envelopes (
      user_id bigint NOT NULL,
      version bigint NOT NULL,
      bytes bytea NOT NULL,
      received bigint NOT NULL,
      PRIMARY KEY (user_id, version)
    );
    """,
    // 3: paired devices and their one-time pairing codes
    DeviceSQL.tables(integer: "bigint", strict: ""),
    // 4: shared reports (ciphertext only)
    ShareRules.tables(integer: "bigint", blob: "bytea", strict: ""),
  ]

  public var isBroken: Bool { connection.isBroken }

  /// Runs `body` as it is: each query its own statement (a token check, then a page in its own
  /// snapshot, ``read(_:)``), since a transaction around them would cost two more round trips.
  public func reading<T>(_ body: () throws -> T) throws -> T { try body() }

  /// Runs `body` in one read-write transaction.
  func write<T>(_ body: () throws -> T) throws -> T { try connection.transaction(body) }

  /// Runs `body` against one consistent snapshot of the database.
  func read<T>(_ body: () throws -> T) throws -> T {
    try connection.transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
  }

  /// `url` with any password (`user:PASSWORD@` or `?password=…`) replaced by `***`, so it can be
  /// printed and logged; anything that is not a `postgres://` URL is not echoed at all (a
  /// key=value connection string may hold `password=` anywhere).
  public static func redacted(_ url: String) -> String {
    guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"),
      let scheme = url.firstRange(of: "://")
    else { return "<not a postgres:// URL>" }
    var result = url
    let rest = url[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" }
    if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
      result = String(url[..<authority.index(after: colon)]) + "***" + String(url[at...])
    }
    guard let question = result.firstIndex(of: "?") else { return result }
    let parameters = result[result.index(after: question)...].split(
      separator: "&", omittingEmptySubsequences: false
    )
    .map { parameter in
      parameter.lowercased().hasPrefix("password=") ? "password=***" : String(parameter)
    }
    return String(result[...question]) + parameters.joined(separator: "&")
  }
}
