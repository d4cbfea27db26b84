/// Connections to the server's store, lent to one request at a time.
///
/// A connection must not be used by two threads at once. With SQLite, WAL lets the readers run
/// side by side and writes take turns; with PostgreSQL each connection is a backend of its own.
/// The pool grows to the number of requests handled at once (the server's threads) and keeps
/// what it opened.
///
/// A connection whose database went away (PostgreSQL restarted, the backend was ended) is
/// dropped with every idle one, and the work is tried once more on a new connection: every
/// store operation can be repeated safely (pushes and snapshots are idempotent). When that
/// fails too, the request gets 503 with `Retry-After`, and the next request connects afresh.
final class StorePool: @unchecked Sendable {
  private let location: ServerStoreLocation
  private let lock = ConditionLock()
  private var idle: [any ServerStorage] = []

  /// Opens the first connection (creating and migrating the store), so a bad `--data` or
  /// `--store` fails before the server listens.
  init(location: ServerStoreLocation) throws {
    self.location = location
    idle.append(try location.open())
  }

  /// Runs `body` with a connection of its own.
  func withStore<T>(_ body: (any ServerStorage) throws -> T) throws -> T {
    var attempts = 0
    while true {
      attempts += 1
      let store = try lock.locked { idle.popLast() } ?? connect()
      do {
        let result = try body(store)
        lock.locked { idle.append(store) }
        return result
      } catch {
        guard store.isBroken else {
          lock.locked { idle.append(store) }
          throw error
        }
        // The others were opened to the same database and are likely gone too.
        lock.locked { idle.removeAll() }
        if attempts == 2 { throw StorePool.unreachable }
      }
    }
  }

  private func connect() throws -> any ServerStorage {
    do {
      return try location.open()
    } catch ServerStoreError.cannotConnect {
      throw StorePool.unreachable
    }
  }

  static let unreachable = HTTPError.unavailable(
    "The server cannot reach its database; try again shortly")
}
