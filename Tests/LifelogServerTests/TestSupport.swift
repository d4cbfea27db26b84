import Foundation

@testable import LifelogServer

/// Outcomes collected from several threads.
final class Outcomes: @unchecked Sendable {
  private let lock = NSLock()
  private var outcomes: [StoreOutcome?] = []
  private let done = DispatchSemaphore(value: 0)

  func append(_ outcome: StoreOutcome?) { lock.withLock { outcomes.append(outcome) } }
  func finish() { done.signal() }
  func wait(for threads: Int) { for _ in 0..<threads { done.wait() } }
  var all: [StoreOutcome?] { lock.withLock { outcomes } }
}
