/// Connections to the server's database, lent to one request at a time.
///
/// A `Database` must not be used by two threads at once. WAL lets the readers run side by side; writes take turns.
final class StorePool: @unchecked Sendable {
  private let folder: String
  private let lock = ConditionLock()
  private var idle: [ServerStore] = []

  /// Opens the first connection (creating and migrating the database), so a bad `--data` fails
  /// before the server listens.
  init(folder: String) throws {
    self.folder = folder
    idle.append(try ServerStore(folder: folder))
  }

  /// Runs `body` with a connection of its own.
  func withStore<T>(_ body: (ServerStore) throws -> T) throws -> T {
    let store = try lock.locked { idle.popLast() } ?? ServerStore(folder: folder)
    defer { lock.locked { idle.append(store) } }
    return try body(store)
  }
}
