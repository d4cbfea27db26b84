import Foundation
import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCore

/// Schema v8 after `recover` lost the newest entries: the step rows it copied still mark
/// entries the log no longer has, and the mark must come down to the newest entry left, or the
/// next add writes its step as a row of its own.
@Suite struct AddStepAfterRecoveryTests {
  let folder = TemporaryDirectory()
  let lunch = ActivityName.derivedID(for: "lunch")

  private func at(_ minutes: Int64) -> LoggedTime {
    LoggedTime(instant: 1_764_633_600 + minutes * 60, offsetMinutes: 60)
  }

  private func integer(_ store: LogStore, _ sql: String) throws -> Int64 {
    try store.database.cachedStatement(sql: sql).first { $0[0] as Int64 } ?? -1
  }

  @discardableResult
  private func add(_ store: LogStore, _ note: String, _ minute: Int64) throws -> Entry {
    try store.recordingUndoStep({ "add \($0.note?.prefix(12) ?? "")" }) {
      try store.add(NewEntry(activityID: lunch, time: at(minute), note: note))
    }
  }

  /// Zeroes every page of the log's file that holds `marker`; returns how many.
  ///
  /// The rows on them are what a damaged disk would cost (the WAL is checkpointed first).
  private func zeroPages(holding marker: String, in path: String) throws -> Int {
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
    let needle = Data(marker.utf8)
    var zeroed = 0
    for start in stride(from: pageSize, to: bytes.count, by: pageSize) {
      let page = start..<min(start + pageSize, bytes.count)
      guard bytes[page].range(of: needle) != nil else { continue }
      bytes.replaceSubrange(page, with: Data(count: page.count))
      zeroed += 1
    }
    try bytes.write(to: URL(fileURLWithPath: path))
    return zeroed
  }

  /// The next add after such a recovery keeps its step in its entry, and undo reverts it first.
  ///
  /// Eight adds (long notes, two entries a page), then an edit, whose step row marks all eight;
  /// the page of the newest entry is lost and `recover` builds a log without it. The next add
  /// writes no step row, and undo reverts it, then the edit.
  @Test func anAddAfterARecoveryThatLostTheNewestEntriesKeepsItsStepInItsEntry() throws {
    let damaged = folder.file("damaged.db")
    var entries: [Entry] = []
    do {
      let store = try LogStore(path: damaged)
      for index in 0..<8 {
        let word = index == 7 ? "NEWEST" : "older\(index)"
        entries.append(try add(store, String(repeating: word + " ", count: 250), Int64(index)))
      }
      _ = try store.recordingUndoStep({ (_: Entry) in "edit first" }) {
        var changes = EntryChanges()
        changes.note = .some("first")
        return try store.update(id: entries[0].id, with: changes)
      }
      #expect(try integer(store, "SELECT max(entry_rowid) FROM local_undo_step") == 8)
      #expect(store.database.checkpointBeforeClosing())
    }
    #expect(try zeroPages(holding: "NEWEST NEWEST", in: damaged) >= 1)

    let recovered = folder.file("recovered.db")
    _ = try LogRecovery.recover(damaged, into: recovered)
    let store = try LogStore(path: recovered)
    #expect(try store.entry(id: entries[7].id) == nil)
    #expect(try store.entry(id: entries[0].id)?.note == "first")
    let newest = try integer(store, "SELECT max(rowid) FROM entry")
    #expect(newest < 8)

    let rows = try integer(store, "SELECT count(*) FROM local_undo_step")
    let stew = try add(store, "stew", 9)
    #expect(try integer(store, "SELECT max(rowid) FROM entry") == newest + 1)
    let kept = "SELECT add_step IS NOT NULL FROM entry WHERE rowid = \(newest + 1)"
    #expect(try integer(store, kept) == 1)
    #expect(try integer(store, "SELECT count(*) FROM local_undo_step") == rows)
    #expect(try store.undoLastStep()?.description == "add stew")
    #expect(try store.entry(id: stew.id)?.deleted == true)
    #expect(try store.undoLastStep()?.description == "edit first")
    #expect(try store.entry(id: entries[0].id)?.note == String(repeating: "older0 ", count: 250))
  }
}
