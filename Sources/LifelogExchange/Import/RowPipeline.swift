@preconcurrency import Glibc
import LifelogCore
import Synchronization

/// Reads and checks import rows on a second thread while the importer writes the ones before,
/// handing them over in batches through a small bounded queue.
///
/// Parsing, checking and hashing a row costs about as much as SQLite's insert of it, so on two
/// cores the import takes the longer of the two rather than their sum. At most ``depth`` batches
/// of ``batchSize`` rows wait at any time, so memory stays bounded whatever the file's size.
final class RowPipeline: @unchecked Sendable {
  /// A row as the reading thread hands it over: checked, with its id, or what is wrong with it.
  enum Checked: Sendable {
    case valid(ValidImportRow, id: String, line: Int)
    case invalid(RowError)
  }

  static let batchSize = 2048
  static let depth = 4

  private let records: any ImportRecords
  private let parser: TimeParser
  private let state = Mutex(State())
  /// Free places in the queue (the reader waits on it) and filled ones (the writer waits on it).
  private let free = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
  private let filled = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
  private var thread = pthread_t()
  private var started = false

  private struct State {
    /// Batches in order; nil marks the end of the input.
    var queue: [[Checked]?] = []
    /// Why reading stopped early (the input could not be read, or its header is wrong).
    var failure: (any Error)?
    /// Set by the writer when it stops before the end: the reader then stops too.
    var cancelled = false
  }

  init(records: any ImportRecords, parser: TimeParser) {
    self.records = records
    self.parser = parser
    sem_init(free, 0, UInt32(RowPipeline.depth))
    sem_init(filled, 0, 0)
  }

  deinit {
    finish()
    sem_destroy(free)
    sem_destroy(filled)
    free.deallocate()
    filled.deallocate()
  }

  /// Starts the reading thread; without one (it could not be created) rows are read on demand.
  func start() {
    let context = Unmanaged.passRetained(self).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { context in
        if let context { Unmanaged<RowPipeline>.fromOpaque(context).takeRetainedValue().readAll() }
        return nil
      }, context)
    if created == 0 {
      started = true
    } else {
      Unmanaged<RowPipeline>.fromOpaque(context).release()
    }
  }

  /// The next batch of checked rows, in file order; nil at the end.
  ///
  /// - Throws: what stopped the reading (an unreadable input, a bad header).
  func next() throws -> [Checked]? {
    guard started else { return try readBatch() }
    while sem_wait(filled) != 0 {}
    let (batch, failure) = state.withLock { state -> ([Checked]??, (any Error)?) in
      (state.queue.isEmpty ? nil : state.queue.removeFirst(), state.failure)
    }
    sem_post(free)
    if let failure { throw failure }
    return batch ?? nil
  }

  /// Stops the reading thread (if it is still running) and waits for it.
  func finish() {
    guard started else { return }
    started = false
    state.withLock { $0.cancelled = true }
    sem_post(free)  // wakes a reader waiting for a free place; it sees `cancelled` and stops
    pthread_join(thread, nil)
  }

  // MARK: - The reading thread

  private func readAll() {
    while true {
      let batch: [Checked]?
      var failure: (any Error)?
      do {
        batch = try readBatch()
      } catch {
        batch = nil
        failure = error
      }
      while sem_wait(free) != 0 {}
      let stop = state.withLock { state -> Bool in
        if state.cancelled { return true }
        state.queue.append(batch)
        state.failure = state.failure ?? failure
        return false
      }
      sem_post(filled)
      if stop || batch == nil { return }
    }
  }

  /// Reads and checks up to ``batchSize`` rows; nil at the end of the input.
  private func readBatch() throws -> [Checked]? {
    var batch: [Checked] = []
    batch.reserveCapacity(RowPipeline.batchSize)
    while batch.count < RowPipeline.batchSize, let record = try records.next() {
      switch record {
      case .failure(let error): batch.append(.invalid(error))
      case .success(let row):
        do throws(InputError) {
          let valid = try row.validated(parser: parser)
          batch.append(.valid(valid, id: valid.id ?? valid.derivedID(), line: row.line))
        } catch {
          batch.append(.invalid(RowError(line: row.line, message: error.message)))
        }
      }
    }
    return batch.isEmpty ? nil : batch
  }
}
