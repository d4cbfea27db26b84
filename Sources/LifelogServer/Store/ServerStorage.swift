import LifelogCore
import LifelogProtocol

/// What the server keeps, whichever database holds it: users and their token hashes, batches
/// under server cursors, snapshots, key envelopes.
///
/// Two implementations: ``SQLiteServerStore`` (embedded SQLite, the default) and ``PostgresStore``
/// (`--store postgres://…`, for several server processes on one database). Both give the same
/// answers; the HTTP tests run against each. An instance is one connection: the server lends
/// instances to one request at a time through its pool.
public protocol ServerStorage: DeviceStorage, ShareStorage {
  // MARK: Users

  /// Adds a user whose token hashes to `tokenSHA256`.
  ///
  /// - Throws: `InputError` when the name is taken or malformed.
  func addUser(name: String, tokenSHA256: String) throws -> ServerUser
  /// Replaces a user's token; the old one stops working at once.
  func setToken(name: String, tokenSHA256: String) throws
  /// Removes a user and everything they stored; returns how many batches and snapshots went.
  @discardableResult
  func removeUser(name: String) throws -> (batches: Int, snapshots: Int)
  func user(named name: String) throws -> ServerUser?
  /// The user whose token hashes to `tokenSHA256`, if any.
  func user(tokenSHA256: String) throws -> ServerUser?
  func user(id: Int64) throws -> ServerUser?
  func users() throws -> [UserSummary]

  // MARK: Batches

  /// Stores batches in one transaction. A name already taken keeps what it holds: the same
  /// bytes are ``StoreOutcome/exists(cursor:)``, others ``StoreOutcome/conflict``.
  func store(_ batches: [IncomingBatch]) throws -> [StoreOutcome]
  /// How many batches of `device` the user has stored and not compacted, and the highest seq.
  func batchCount(user: Int64, device: String) throws -> (count: Int, highestSeq: Int)
  /// Deletes the bytes of `device`'s batches through `seq`; 409 unless a snapshot covers them.
  func deleteBatches(user: Int64, device: String, through seq: Int) throws -> Int
  /// The batches of devices other than `excluded` after `cursor`, in server order.
  func changes(
    user: Int64, after cursor: ServerCursor, excluding excluded: String?, limits: PageLimits
  ) throws -> ChangesPage

  // MARK: Snapshots

  /// Stores a verified snapshot under `name`, dropping older ones of its device that it covers.
  func storeSnapshot(
    user: Int64, name: String, header: Batch, bytes: [UInt8], sha256: String
  ) throws -> StoreOutcome
  func snapshotRecord(user: Int64, name: String) throws -> SnapshotRecord?
  func snapshotBytes(id: Int64) throws -> [UInt8]
  /// The newest snapshot that holds what `cursor` has not reached (docs/http-api.md).
  func latestSnapshot(
    user: Int64, beyond cursor: ServerCursor?, excluding excluded: String?
  ) throws -> SnapshotRecord?

  // MARK: Key envelopes

  /// The newest key envelope of `user`, or nil when none was stored.
  func latestKeyEnvelope(user: Int64) throws -> KeyEnvelope?
  /// Stores version `version`: `.created`; `.exists` when it already holds these bytes;
  /// `.conflict` when it holds others or is not the newest + 1.
  func putKeyEnvelope(user: Int64, version: Int64, bytes: [UInt8]) throws -> PutOutcome

  // MARK: Reading

  /// Runs `body`, whose calls only read, as one read of the store where that is cheaper than
  /// one read per call: SQLite takes one read transaction (its locks once, not once a query);
  /// PostgreSQL runs each query as it comes (a transaction would be two more round trips).
  func reading<T>(_ body: () throws -> T) throws -> T

  /// Whether this connection can no longer be used (its database went away): the pool drops it.
  var isBroken: Bool { get }
}

/// Where the server keeps its data: `--data DIR` (SQLite) or `--store postgres://…`.
public enum ServerStoreLocation: Equatable, Sendable, CustomStringConvertible {
  case folder(String)
  case postgres(url: String)

  /// Reads `--store`: a `postgres://` or `postgresql://` URL.
  ///
  /// - Throws: `InputError` for anything else.
  public init(storeURL url: String) throws {
    guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
      throw InputError(
        "'--store \(PostgresStore.redacted(url))' must be a PostgreSQL URL such as "
          + "postgres://USER@HOST:5432/DB; for the embedded SQLite store use '--data DIR'")
    }
    self = .postgres(url: url)
  }

  /// Opens one connection to the store (creating and migrating its schema when needed).
  public func open() throws -> any ServerStorage {
    switch self {
    case .folder(let folder): try SQLiteServerStore(folder: folder)
    case .postgres(let url): try PostgresStore(url: url)
    }
  }

  /// The folder, or the URL without its password.
  public var description: String {
    switch self {
    case .folder(let folder): folder
    case .postgres(let url): PostgresStore.redacted(url)
    }
  }
}
