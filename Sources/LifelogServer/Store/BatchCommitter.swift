/// Group commit for pushed batches: concurrent pushes are stored in one transaction, so they
/// share one disk flush (`synchronous = FULL`) instead of queueing for one each.
///
/// The first thread to arrive stores everything queued so far, then looks again; the others wait
/// for their outcome. Every outcome is handed out only after its transaction has committed.
///
/// SQLite has one writer, so one round commits at a time. PostgreSQL takes several at once (each
/// on a connection of its own; their flushes share the WAL's), so there `rounds` may be more.
final class BatchCommitter: @unchecked Sendable {
  private let pool: StorePool
  private let lock = ConditionLock()
  private var queue: [Job] = []
  private var committing = 0
  private let rounds: Int

  private final class Job {
    let batch: IncomingBatch
    var outcome: Result<StoreOutcome, any Error>?
    init(_ batch: IncomingBatch) { self.batch = batch }
  }

  init(pool: StorePool, rounds: Int = 1) {
    self.pool = pool
    self.rounds = rounds
  }

  /// Stores one batch, returning once it is committed (or has failed).
  func store(_ batch: IncomingBatch) throws -> StoreOutcome {
    let job = Job(batch)
    lock.locked {
      queue.append(job)
      while job.outcome == nil {
        if committing == rounds || queue.isEmpty {
          lock.wait()
          continue
        }
        committing += 1
        let jobs = queue
        queue.removeAll()
        // Store without holding the lock, so more pushes can queue for the next round; hand the
        // outcomes out only once it is held again, since the waiters read them under it.
        var outcomes: [Result<StoreOutcome, any Error>] = []
        lock.unlocked { outcomes = commit(jobs) }
        for (job, outcome) in zip(jobs, outcomes) { job.outcome = outcome }
        committing -= 1
        lock.broadcast()
      }
    }
    guard let outcome = job.outcome else { throw HTTPError.unavailable("The batch was not stored") }
    return try outcome.get()
  }

  /// Stores `jobs` in one transaction: one outcome per job, in order.
  ///
  /// Called without the lock, so it touches no job's state.
  private func commit(_ jobs: [Job]) -> [Result<StoreOutcome, any Error>] {
    do {
      let outcomes = try pool.withStore { try $0.store(jobs.map(\.batch)) }
      guard outcomes.count == jobs.count else {
        throw HTTPError.unavailable("The batch was not stored")
      }
      return outcomes.map { .success($0) }
    } catch {
      return jobs.map { _ in .failure(error) }
    }
  }
}
