import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCore

/// Schema v8 from outside: whatever mix of writes comes between them, `undo` reverts the steps
/// kept in entries and in `local_undo_step` newest first, each exactly once.
@Suite struct AddStepOrderTests {
  let folder = TemporaryDirectory()
  let lunch = ActivityName.derivedID(for: "lunch")

  private func at(_ minutes: Int64) -> LoggedTime {
    LoggedTime(instant: 1_764_633_600 + minutes * 60, offsetMinutes: 60)
  }

  @discardableResult
  private func add(_ store: LogStore, _ note: String, _ minute: Int64) throws -> Entry {
    try store.recordingUndoStep({ "add \($0.note ?? "")" }) {
      try store.add(NewEntry(activityID: lunch, time: at(minute), note: note))
    }
  }

  private func edit(_ store: LogStore, _ id: String, note: String) throws {
    _ = try store.recordingUndoStep({ (_: Entry) in "edit \(note)" }) {
      var changes = EntryChanges()
      changes.note = .some(note)
      return try store.update(id: id, with: changes)
    }
  }

  /// An entry added through the library outside any step (as the test logs and benchmarks do)
  /// records nothing, and the add after it is still the one `undo` reverts first.
  @Test func anEntryAddedOutsideAStepLeavesTheOrderOfTheStepsAlone() throws {
    let store = try LogStore(path: folder.file("outside.db"))
    let soup = try add(store, "soup", 0)
    try store.add(NewEntry(activityID: lunch, time: at(1), note: "bread"))
    try store.add(contentsOf: [NewEntry(activityID: lunch, time: at(2), note: "jam")])
    let salad = try add(store, "salad", 3)
    let steps = try store.undoSteps(limit: 10)
    #expect(steps.map(\.description) == ["add salad", "add soup"])
    #expect(Set(steps.map(\.seq)).count == 2)
    #expect(try store.undoLastStep()?.description == "add salad")
    #expect(try store.entry(id: salad.id)?.deleted == true)
    #expect(try store.entry(id: soup.id)?.deleted == false)
    #expect(try store.undoLastStep()?.description == "add soup")
    #expect(try store.undoLastStep() == nil)
  }

  /// An add after a step kept with the largest integer as its seq (written by hand): the next
  /// seq has nowhere to go, so the steps are numbered again from 1 in their order first, and
  /// the new add is still the newest.
  @Test func aStepSeqWrittenByHandAsTheLargestIntegerStillLetsTheNextAddBeUndoneFirst() throws {
    let store = try LogStore(path: folder.file("largest.db"))
    let soup = try add(store, "soup", 0)
    try store.database.execute(
      sql: "UPDATE entry SET add_step = json_set(add_step, '$[0]', 9223372036854775807)")
    let salad = try add(store, "salad", 1)
    let listed = try store.undoSteps(limit: 10)
    #expect(listed.map(\.description) == ["add salad", "add soup"])
    #expect(listed.map(\.seq) == [2, 1])
    #expect(try store.undoLastStep()?.description == "add salad")
    #expect(try store.entry(id: salad.id)?.deleted == true)
    #expect(try store.entry(id: soup.id)?.deleted == false)
    #expect(try store.undoLastStep()?.description == "add soup")
    #expect(try store.entry(id: soup.id)?.deleted == true)
    #expect(try store.undoLastStep() == nil)
  }

  /// A step numbered exactly the largest seq lifelog gives (written by hand): the next add's
  /// step cannot be kept in its entry, and the row it takes instead is numbered after the steps
  /// are numbered again, inside the range, so nothing is left for `check` to name.
  @Test func anAddAfterAStepNumberedTheLargestSeqKeepsEveryStepInRange() throws {
    let store = try LogStore(path: folder.file("top.db"))
    let soup = try add(store, "soup", 0)
    try store.database.execute(
      sql: "UPDATE entry SET add_step = json_set(add_step, '$[0]', 9007199254740992)")
    let salad = try add(store, "salad", 1)
    #expect(try store.stepSeqsOutOfRange() == false)
    #expect(try store.undoSteps(limit: 10).map(\.seq) == [2, 1])
    #expect(try store.undoLastStep()?.description == "add salad")
    #expect(try store.entry(id: salad.id)?.deleted == true)
    #expect(try store.entry(id: soup.id)?.deleted == false)
  }

  /// An entry's step numbered past the largest integer (written by hand), which SQLite reads as a
  /// real number: a library add outside any step numbers the steps again before it moves them
  /// to the table, so the move does not fail on a seq that is not an integer.
  @Test func anAddOutsideAStepAfterASeqPastTheLargestIntegerStillWorks() throws {
    let store = try LogStore(path: folder.file("real.db"))
    let soup = try add(store, "soup", 0)
    try store.database.execute(
      sql: "UPDATE entry SET add_step = json_set(add_step, '$[0]', json('99999999999999999999'))")
    try store.add(NewEntry(activityID: lunch, time: at(1), note: "bread"))
    #expect(try store.undoSteps(limit: 10).map(\.seq) == [1])
    #expect(try store.stepSeqsOutOfRange() == false)
    #expect(try store.undoLastStep()?.description == "add soup")
    #expect(try store.entry(id: soup.id)?.deleted == true)
  }

  /// Schema v7, where every step is a row: a row numbered with the largest integer made SQLite
  /// give the next step a random free seq, below it; the steps are numbered again first.
  @Test func aTableSeqAtTheLargestIntegerStillLetsTheNextStepBeUndoneFirst() throws {
    let store = try LogStore(path: folder.file("largest7.db"), schemaVersion: 7)
    let soup = try add(store, "soup", 0)
    try store.database.execute(sql: "UPDATE local_undo_step SET seq = 9223372036854775807")
    let salad = try add(store, "salad", 1)
    try edit(store, soup.id, note: "stew")
    let listed = try store.undoSteps(limit: 10)
    #expect(listed.map(\.description) == ["edit stew", "add salad", "add soup"])
    #expect(listed.map(\.seq) == [3, 2, 1])
    #expect(try store.undoLastStep()?.description == "edit stew")
    #expect(try store.undoLastStep()?.description == "add salad")
    #expect(try store.entry(id: salad.id)?.deleted == true)
    #expect(try store.entry(id: soup.id)?.note == "soup")
  }

  /// Steps numbered below 1 and above the range lifelog gives, in the table and in the entries
  /// (written by hand): an `undo` numbers them again in their order before it reverts the newest.
  @Test func anUndoNumbersStepsOutOfRangeAgainInTheirOrder() throws {
    let store = try LogStore(path: folder.file("range.db"))
    let soup = try add(store, "soup", 0)
    try edit(store, soup.id, note: "stew")
    try add(store, "salad", 1)
    try add(store, "bread", 2)
    try store.database.execute(
      sql: """
        UPDATE local_undo_step SET seq = -9223372036854775808 WHERE seq = 1;
        UPDATE local_undo_step SET seq = 9007199254740993 WHERE seq = 2;
        UPDATE entry SET add_step = json_set(add_step, '$[0]', 9223372036854775807)
          WHERE rowid = (SELECT max(rowid) FROM entry);
        """)
    #expect(try store.stepSeqsOutOfRange())
    var undone: [String] = []
    while let step = try store.undoLastStep() { undone.append(step.description) }
    #expect(undone == ["add bread", "add salad", "edit stew", "add soup"])
    #expect(try store.entry(id: soup.id)?.deleted == true)
  }

  /// More adds in a row than steps are kept: the table's rows are trimmed away beneath the steps
  /// kept in entries (the mark falls back to the device row's), and undo still walks back through
  /// the newest kept steps, then stops.
  @Test func moreAddsInARowThanAreKeptUndoTheNewestKept() throws {
    let store = try LogStore(path: folder.file("long.db"))
    let first = try add(store, "first", 0)
    for round in 1...5 { try edit(store, first.id, note: "e\(round)") }
    var expected = ["add first"] + (1...5).map { "edit e\($0)" }
    for round in 1...140 {
      try add(store, "n\(round)", Int64(round))
      expected.append("add n\(round)")
    }
    let kept = Array(expected.suffix(LogStore.keptUndoSteps).reversed())
    #expect(try store.undoSteps(limit: LogStore.keptUndoSteps).map(\.description) == kept)
    var undone: [String] = []
    while let step = try store.undoLastStep() { undone.append(step.description) }
    #expect(undone == kept)
  }

  /// Random adds, edits, undos, queue moves (as a merge or a push makes) and reopenings, from a
  /// fixed seed: after each, the steps listed are the commands not yet undone, newest first, and
  /// `undo` reverts the newest of them; at schema v8 exactly as at v7, where every step is a row.
  @Test(arguments: [7, 8]) func aRandomMixOfWritesUndoesNewestFirst(schemaVersion: Int) throws {
    let seed: UInt64 = 0x5EED_0008
    print("AddStepOrderTests seed 0x\(String(seed, radix: 16))")
    var random = SeededGenerator(seed: seed)
    let path = folder.file("random\(schemaVersion).db")
    var store = try LogStore(path: path, schemaVersion: schemaVersion)
    var expected: [String] = []
    var live: [String] = []
    for round in 0..<300 {
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4:
        let entry = try add(store, "n\(round)", Int64(round))
        expected.append("add n\(round)")
        live.append(entry.id)
      case 4..<6 where !live.isEmpty:
        let id = live[Int.random(in: 0..<live.count, using: &random)]
        try edit(store, id, note: "e\(round)")
        expected.append("edit e\(round)")
      case 6..<8:
        let undone = try store.undoLastStep()?.description
        #expect(undone == expected.popLast(), "round \(round)")
      case 8:
        try store.inTransaction { try store.queueEntriesPastMark() }
      default:
        store = try LogStore(path: path, schemaVersion: schemaVersion)
      }
      // A step past the kept number is gone for good, even once newer ones are undone.
      if expected.count > LogStore.keptUndoSteps { expected.removeFirst() }
      let listed = try store.undoSteps(limit: LogStore.keptUndoSteps).map(\.description)
      let wanted = Array(expected.reversed())
      #expect(listed == wanted, "round \(round)")
      if listed != wanted { return }
    }
  }
}

/// SplitMix64: the same numbers for the same seed on every machine.
private struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
