@preconcurrency import Glibc
import LifelogCore
import LifelogTestSupport
import Testing

/// What one `add` writes to the WAL once the log keeps its full undo history, and that undo still
/// offers exactly the kept steps when older ones wait to be deleted in a batch.
@Suite struct AddPagesTests {
  let folder = TemporaryDirectory()
  let snack = ActivityName.derivedID(for: "snack")

  /// One `add` as the command runs it: the entry and its undo step in one transaction.
  private func add(_ store: LogStore, _ index: Int) throws {
    _ = try store.recordingUndoStep({ _ in "add \(index)" }) {
      try store.add(
        NewEntry(
          activityID: snack,
          time: LoggedTime(instant: 1_764_633_600 + Int64(index) * 60, offsetMinutes: 60),
          note: "apple \(index)"))
    }
  }

  private func walSize(_ path: String) -> Int {
    var info = stat()
    return stat(path + "-wal", &info) == 0 ? Int(info.st_size) : -1
  }

  @Test func anAddPastTheKeptUndoStepsWritesNoPagesForTheOldSteps() throws {
    let path = folder.file("log.db")
    let store = try LogStore(path: path)
    try store.database.execute(sql: "PRAGMA wal_autocheckpoint = 0")
    for index in 0..<(LogStore.keptUndoSteps + 60) { try add(store, index) }
    #expect(store.database.checkpointBeforeClosing())
    #expect(walSize(path) == 0)
    // 25 adds from step 161 on, none of them at a batch of deletes (every 32nd step).
    let adds = 25
    for index in 0..<adds { try add(store, LogStore.keptUndoSteps + 60 + index) }
    let frameBytes = 4096 + 24
    let pagesPerAdd = Double(walSize(path) - 32) / Double(frameBytes * adds)
    // The entry and its three indexes and the undo step, which holds its row and the clock
    // (the queue is the entry's position): 5, and an index page split now and then adds one.
    // Schema v6 wrote 10 (a queue row, the clock row, the step's row and its two indexes).
    #expect(pagesPerAdd < 5, "\(pagesPerAdd) pages per add")
  }

  @Test func undoOffersExactlyTheKeptStepsWhileOlderOnesWaitForTheirBatch() throws {
    let store = try LogStore(path: folder.file("undo.db"))
    let recorded = LogStore.keptUndoSteps + 45
    for index in 0..<recorded { try add(store, index) }
    let listed = try store.undoSteps(limit: 1_000)
    #expect(listed.count == LogStore.keptUndoSteps)
    #expect(listed.first?.description == "add \(recorded - 1)")
    #expect(listed.last?.description == "add \(recorded - LogStore.keptUndoSteps)")
    var undone: [String] = []
    while let step = try store.undoLastStep() { undone.append(step.description) }
    #expect(undone.count == LogStore.keptUndoSteps)
    #expect(undone.last == "add \(recorded - LogStore.keptUndoSteps)")
    // Recorded again past the kept number, then one undone: the kept number less that one.
    for index in 0..<(LogStore.keptUndoSteps + 40) { try add(store, 1_000 + index) }
    _ = try store.undoLastStep()
    #expect(try store.undoSteps(limit: 1_000).count == LogStore.keptUndoSteps - 1)
  }
}
