import Synchronization

/// How far this process's writes to the log have got, for the report of a process that traps:
/// a signal handler can read atomics, but cannot read the log back.
///
/// ``LogStore`` counts each outermost write transaction: uncertain from the moment its body is
/// done (its `COMMIT` runs next) until the `COMMIT` returns; one that fails stays uncertain,
/// since its change may be in the log.
public enum CommitProgress {
  private static let committed = Atomic<Int>(0)
  private static let uncertain = Atomic<Int>(0)

  /// What a process that stops now leaves in the log, as far as its commits tell.
  public enum State: Sendable {
    /// No write of this process has committed or started committing.
    case nothingCommitted
    /// Every write that started committing has committed.
    case committed
    /// A `COMMIT` is running or failed: only reading the log tells whether it is in.
    case uncertain
  }

  /// The state now; safe to read in a signal handler.
  public static var state: State {
    if uncertain.load(ordering: .relaxed) > 0 { return .uncertain }
    return committed.load(ordering: .relaxed) > 0 ? .committed : .nothingCommitted
  }

  /// How many outermost write transactions of this process have committed: a command compares
  /// it with the count at its start to tell whether it changed the log.
  public static var commitCount: Int { committed.load(ordering: .relaxed) }

  static func commitStarting() { uncertain.add(1, ordering: .relaxed) }

  static func commitReturned() {
    uncertain.subtract(1, ordering: .relaxed)
    committed.add(1, ordering: .relaxed)
  }
}
