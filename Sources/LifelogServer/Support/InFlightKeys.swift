import Synchronization

/// Keys (client addresses) with a slow piece of work under way, at most one each: a second
/// request for a key whose work still runs is turned away, so one client cannot make the server
/// run that work many times at once (a passcode's PBKDF2 costs about 50 ms of a core).
///
/// Holds only the keys in flight, so it is bounded by the requests handled at once.
final class InFlightKeys<Key: Hashable & Sendable>: Sendable {
  private let keys = Mutex<Set<Key>>([])

  /// Marks `key` in flight; false when it is already.
  func enter(_ key: Key) -> Bool {
    keys.withLock { $0.insert(key).inserted }
  }

  func leave(_ key: Key) {
    _ = keys.withLock { $0.remove(key) }
  }
}
