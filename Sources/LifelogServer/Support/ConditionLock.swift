@preconcurrency import Glibc

/// A mutex with a condition variable (pthreads), for the few places where threads of
/// libmicrohttpd's pool wait for each other.
final class ConditionLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Runs `body` holding the lock.
  func locked<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Waits for a broadcast; call only while holding the lock (inside ``locked(_:)``).
  func wait() { pthread_cond_wait(condition, mutex) }

  /// Wakes every waiter.
  func broadcast() { pthread_cond_broadcast(condition) }
}

extension ConditionLock {
  /// Runs `body` with the lock released; call only while holding it.
  func unlocked(_ body: () -> Void) {
    pthread_mutex_unlock(mutex)
    defer { pthread_mutex_lock(mutex) }
    body()
  }
}
