import Foundation
import LifelogTestSupport
import Testing

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

/// The repair of a damaged stored batch, the same on every store.
enum StoreRepairCheck {
  /// Stores batch 1 of a device for `user`, replaces its stored bytes with what `damage` is
  /// given (the store's own SQL), then pushes again.
  static func run(
    on store: any ServerStorage, user: Int64, damage: ([UInt8]) throws -> Void
  ) throws {
    let device = "repair-device"
    func push(_ bytes: [UInt8]) throws -> StoreOutcome {
      try store.store([IncomingBatch(user: user, device: device, seq: 1, bytes: bytes, rows: 3)])[0]
    }
    let right = SampleBatches.batch(device: device, seq: 1)
    guard case .created(let first) = try push(right) else {
      Issue.record("not stored")
      return
    }
    // One flipped byte: the copy no longer reads, but its trailer still claims the batch.
    var flipped = right
    flipped[flipped.count / 2] ^= 0x01
    for damaged in [flipped, Array(right.prefix(right.count / 2)), [UInt8]("junk".utf8)] {
      try damage(damaged)
      // Under its cursor: a device's batches stay in seq order, and a pull from before it finds
      // the right bytes.
      #expect(try push(right) == .created(cursor: first), "over \(damaged.count) damaged bytes")
      #expect(try push(right) == .exists(cursor: first))
      let page = try store.changes(
        user: user, after: ServerCursor(position: first - 1), excluding: nil, limits: PageLimits())
      #expect(page.items.map(\.bytes) == [right])
    }
    #expect(try push(SampleBatches.batch(device: device, seq: 1, note: "other")) == .conflict)
  }
}
