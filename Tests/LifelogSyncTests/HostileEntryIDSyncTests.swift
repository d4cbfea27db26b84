import Foundation
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Testing

/// Schema v5 keeps a lower-case UUID id as 16 bytes and every other id as its text: entry ids a
/// remote sends in any other form must come back out exactly, merge with the same row on every
/// machine, and leave two machines with the same log whatever order they sync in.
@Suite struct HostileEntryIDSyncTests {
  let folder = TemporaryDirectory()
  var remote: String { folder.file("remote") }
  let snack = ActivityName.derivedID(for: "snack")

  /// Ids another device may send: the sync protocol accepts any non-empty id.
  static let hostileIDs: [String] = [
    "92AE6D22-83FC-4E56-9AFD-D5B59B27C33F",  // upper case
    "92Ae6d22-83fc-4e56-9afd-d5b59b27c33f",  // differs from the next only in case
    "92ae6d22-83fc-4e56-9afd-d5b59b27c33f",  // the text form of a 16-byte id
    "{92ae6d22-83fc-4e56-9afd-d5b59b27c33f}",  // braces
    "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",  // 36 characters, not hex
    "0123456789abcdef",  // 16 characters: the length of a stored key
    "92ae6d2283fc4e569afdd5b59b27c33f",  // 32 hex digits, no dashes
    "1a2b\u{0}tail",  // a NUL inside
    "1a2b\t\n\u{1B}[2J\u{7F}",  // control characters
    String(repeating: "x", count: 20_000),  // very long
  ]

  private func time(_ minute: Int) -> LoggedTime {
    LoggedTime(instant: 1_764_662_400 + Int64(minute) * 60, offsetMinutes: 60)
  }

  /// Every entry of `machine`, sorted by id, as comparable text.
  private func log(_ machine: Machine) throws -> [String] {
    try machine.entries().map {
      "\($0.id.utf8.count):\(Array($0.id.utf8).hashValue) \($0.activityID) \($0.time.instant) "
        + "\($0.note ?? "-") \($0.deleted)"
    }.sorted()
  }

  private func ids(_ machine: Machine) throws -> Set<String> {
    Set(try machine.entries().map(\.id))
  }

  @Test func hostileIdsRoundTripMergeAndConvergeThroughAFolderRemote() throws {
    let a = try Machine(folder, "a", remote: remote)
    let b = try Machine(folder, "b", remote: remote)
    for (index, id) in Self.hostileIDs.enumerated() {
      try a.log.add(NewEntry(id: id, activityID: snack, time: time(index), note: "a\(index)"))
    }
    #expect(try ids(a) == Set(Self.hostileIDs))
    try a.sync()
    try b.sync()
    #expect(try ids(b) == Set(Self.hostileIDs))
    // B edits every one of them and deletes one: A merges them into the same rows.
    for (index, id) in Self.hostileIDs.enumerated() {
      var changes = EntryChanges()
      changes.note = .some("b\(index)")
      try b.log.update(id: id, with: changes)
    }
    try b.log.setDeleted(true, ids: [Self.hostileIDs[7]])
    try b.sync()
    try a.sync()
    #expect(try ids(a) == Set(Self.hostileIDs))
    #expect(try a.entries().count == Self.hostileIDs.count)
    for (index, id) in Self.hostileIDs.enumerated() {
      let entry = try #require(try a.log.entry(id: id), "id \(index)")
      #expect(entry.id == id && entry.note == "b\(index)" && entry.deleted == (index == 7))
    }
    #expect(try log(a) == log(b))
    // A third machine that starts from a snapshot gets the same ids.
    try a.sync(compact: true)
    let c = try Machine(folder, "c", remote: remote)
    try c.sync()
    #expect(try log(c) == log(a))
  }

  @Test(arguments: [0, 1])
  func twoMachinesEditingTheSameHostileIdsConvergeInEitherOrder(first: Int) throws {
    let machines = [
      try Machine(folder, "a", remote: remote), try Machine(folder, "b", remote: remote),
    ]
    for (index, id) in Self.hostileIDs.enumerated() {
      try machines[index % 2].log.add(
        NewEntry(id: id, activityID: snack, time: time(index), note: "n\(index)"))
    }
    let order = [machines[first], machines[1 - first]]
    for machine in order + [order[0]] { try machine.sync() }
    for (index, id) in Self.hostileIDs.enumerated() {
      var changes = EntryChanges()
      changes.note = .some("\(index) from \(index % 2)")
      try machines[index % 2].log.update(id: id, with: changes)
      changes.quantity = .some(Double(index))
      changes.note = nil
      try machines[1 - index % 2].log.update(id: id, with: changes)
    }
    for machine in order + order { try machine.sync() }
    #expect(try ids(machines[0]) == Set(Self.hostileIDs))
    #expect(try log(machines[0]) == log(machines[1]))
    let both = try machines.map {
      try $0.entries().sorted { $0.id < $1.id }.map { ($0.id, $0.note, $0.quantity) }
    }
    #expect(both[0].elementsEqual(both[1]) { $0 == $1 })
  }

  /// Undo after a sync merged another machine's changes into the same rows: a step whose fields
  /// nobody else touched reverts, one whose field another machine changed is refused whole.
  @Test(arguments: ["5e1f0000-0000-4000-8000-000000000001", "Not-A-UUID\u{0}x"])
  func undoAfterASyncMergeRevertsOnlyWhatNobodyElseChanged(id: String) throws {
    let a = try Machine(folder, "a", remote: remote)
    let b = try Machine(folder, "b", remote: remote)
    try a.log.add(NewEntry(id: id, activityID: snack, time: time(1), note: "first"))
    try a.sync()
    try b.sync()
    var note = EntryChanges()
    note.note = .some("second")
    try a.log.recordingUndoStep({ _ in "edit note" }) { try a.log.update(id: id, with: note) }
    var activity = EntryChanges()
    activity.activityID = ActivityName.derivedID(for: "walk")
    try a.log.recordingUndoStep({ _ in "edit activity" }) {
      try a.log.update(id: id, with: activity)
    }
    var quantity = EntryChanges()
    quantity.quantity = .some(2)
    try b.log.update(id: id, with: quantity)
    try b.sync()
    try a.sync()
    #expect(try a.log.entry(id: id)?.quantity == 2)
    // Nobody else changed the activity: reverting it keeps B's quantity.
    #expect(try a.log.undoLastStep()?.description == "edit activity")
    #expect(try a.log.entry(id: id)?.activityID == snack)
    #expect(try a.log.entry(id: id)?.quantity == 2)
    // B now changes the note: undoing A's note edit is refused, and writes nothing.
    var otherNote = EntryChanges()
    otherNote.note = .some("from b")
    try b.log.update(id: id, with: otherNote)
    try b.sync()
    try a.sync()
    #expect(throws: InputError.self) { try a.log.undoLastStep() }
    #expect(try a.log.entry(id: id)?.note == "from b")
    try a.sync()
    try b.sync()
    #expect(try log(a) == log(b))
    #expect(try b.log.entry(id: id)?.activityID == snack)
  }

  /// Activity ids of any form an entry names (its activity has not arrived, or never will) come
  /// back out exactly on the other machine, and its next batch sends them unchanged.
  @Test func oddActivityIdsOfEntriesRoundTrip() throws {
    let a = try Machine(folder, "a", remote: remote)
    let b = try Machine(folder, "b", remote: remote)
    let activities = [
      "", "act\u{0}ivity", "\u{1B}[2J", String(repeating: "y", count: 10_000),
      "92AE6D22-83FC-4E56-9AFD-D5B59B27C33F", snack.uppercased(),
    ]
    var ids: [String] = []
    for (index, activity) in activities.enumerated() {
      ids.append(try a.log.add(NewEntry(activityID: activity, time: time(index))).id)
    }
    try a.sync()
    try b.sync()
    for (id, activity) in zip(ids, activities) {
      #expect(try b.log.entry(id: id)?.activityID == activity)
      var changes = EntryChanges()
      changes.note = .some("b")
      try b.log.update(id: id, with: changes)
    }
    try b.sync()
    try a.sync()
    for (id, activity) in zip(ids, activities) {
      let entry = try #require(try a.log.entry(id: id))
      #expect(entry.activityID == activity && entry.note == "b")
    }
    #expect(try log(a) == log(b))
  }
}
