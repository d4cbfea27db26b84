import Foundation
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Testing

/// How far a test machine's wall clock is off; a test may move it (a clock set right).
final class ClockSkew: @unchecked Sendable {
  var milliseconds: Int64
  init(_ milliseconds: Int64) { self.milliseconds = milliseconds }
}

/// One simulated machine: its own log file, syncing with a shared folder remote.
final class Machine {
  let log: LogStore
  let store: SyncStore
  let engine: SyncEngine
  let remoteURL: String
  let skew: ClockSkew

  init(
    _ folder: TemporaryDirectory, _ name: String, remote: String, skewMilliseconds: Int64 = 0
  ) throws {
    log = try LogStore(path: folder.file("\(name).db"))
    let skew = ClockSkew(skewMilliseconds)
    self.skew = skew
    log.wallClockMilliseconds = { LogStore.systemMilliseconds() + skew.milliseconds }
    store = SyncStore(log: log)
    engine = SyncEngine(store: store)
    engine.wallClock = log.wallClockMilliseconds
    remoteURL = remote
    let (manifest, _) = try FileRemote(url: remote).createOrJoin(
      minimumVersion: LifelogVersion.minimumRemoteWriter)
    try store.addRemote(name: "r", url: remote, remoteID: manifest.remoteID)
  }

  @discardableResult
  func sync(compact: Bool = false) throws -> SyncEngine.Report {
    let record = try #require(try store.remote(named: "r"))
    return try engine.sync(
      record, with: try FileRemote(url: remoteURL), options: .init(compact: compact))
  }

  func entries() throws -> [Entry] {
    try log.entries(EntryQuery()) + log.entries(EntryQuery(deleted: true))
  }
}

@Suite struct SyncEngineTests {
  let folder = TemporaryDirectory()
  var remote: String { folder.file("remote") }
  let snack = ActivityName.derivedID(for: "snack")

  private func time(_ hour: Int) -> LoggedTime {
    LoggedTime(instant: 1_764_662_400 + Int64(hour) * 3600, offsetMinutes: 60)
  }

  @Test func entriesFromBeforeTheRemoteExistedAreSentOnTheFirstSync() throws {
    let a = try LogStore(path: folder.file("a.db"))
    try a.add(NewEntry(activityID: snack, time: time(1), note: "before"))
    let machineA = try Machine(folder, "a", remote: remote)
    let machineB = try Machine(folder, "b", remote: remote)
    try machineA.sync()
    try machineB.sync()
    #expect(try machineB.entries().map(\.note) == ["before"])
  }

  @Test func editsOfDifferentFieldsOnTwoMachinesAreBothKept() throws {
    let a = try Machine(folder, "a", remote: remote)
    let b = try Machine(folder, "b", remote: remote)
    let entry = try a.log.add(NewEntry(activityID: snack, time: time(1), note: "apple"))
    try a.sync()
    try b.sync()
    var note = EntryChanges()
    note.note = .some("green apple")
    try a.log.update(id: entry.id, with: note)
    var duration = EntryChanges()
    duration.duration = .some(300)
    try b.log.update(id: entry.id, with: duration)
    try a.sync()
    try b.sync()
    try a.sync()
    for machine in [a, b] {
      let merged = try #require(try machine.log.entry(id: entry.id))
      #expect(merged.note == "green apple")
      #expect(merged.duration == 300)
    }
  }

  @Test func theSameFieldEditedOnBothMachinesGoesToTheLaterEditEvenWithASlowClock() throws {
    let a = try Machine(folder, "a", remote: remote)
    // 50 minutes behind.
    let b = try Machine(folder, "b", remote: remote, skewMilliseconds: -50 * 60_000)
    let entry = try a.log.add(NewEntry(activityID: snack, time: time(1), note: "first"))
    try a.sync()
    try b.sync()
    var change = EntryChanges()
    change.note = .some("edited after seeing it")
    // B saw A's stamp, so its edit wins despite its clock.
    try b.log.update(id: entry.id, with: change)
    try b.sync()
    try a.sync()
    #expect(try a.log.entry(id: entry.id)?.note == "edited after seeing it")
  }

  @Test func deletesAndRestoresSyncAndNothingEchoesBack() throws {
    let a = try Machine(folder, "a", remote: remote)
    let b = try Machine(folder, "b", remote: remote)
    let entry = try a.log.add(NewEntry(activityID: snack, time: time(1)))
    try a.sync()
    try b.sync()
    #expect(try b.store.pendingCount() == 0)
    _ = try b.log.setDeleted(true, ids: [entry.id])
    try b.sync()
    try a.sync()
    #expect(try a.log.entry(id: entry.id)?.deleted == true)
    #expect(try a.store.pendingCount() == 0)
    _ = try a.log.setDeleted(false, ids: [entry.id])
    try a.sync()
    let report = try b.sync()
    #expect(report.pulled == 1)
    #expect(try b.log.entry(id: entry.id)?.deleted == false)
  }

  @Test func theSameNewActivityOnTwoOfflineMachinesIsOneActivity() throws {
    let a = try Machine(folder, "a", remote: remote)
    let b = try Machine(folder, "b", remote: remote)
    let teaA = try a.log.addActivity(named: "tea", kind: .meal)
    let teaB = try b.log.addActivity(named: "Tea", kind: .meal)
    try a.log.add(NewEntry(activityID: teaA.id, time: time(1)))
    try b.log.add(NewEntry(activityID: teaB.id, time: time(2)))
    try a.sync()
    try b.sync()
    try a.sync()
    for machine in [a, b] {
      #expect(try machine.log.activities().filter { $0.name.lowercased() == "tea" }.count == 1)
      #expect(try machine.log.entries(EntryQuery(activityID: teaA.id)).count == 2)
    }
  }

  @Test func aNewMachineDoesNotUndoARenameOfADefaultActivity() throws {
    let a = try Machine(folder, "a", remote: remote)
    try a.log.renameActivity("workout", to: "gym")
    try a.sync()
    let c = try Machine(folder, "c", remote: remote)
    try c.sync()
    try a.sync()
    for machine in [a, c] {
      #expect(try machine.log.activity(named: "gym") != nil)
      #expect(try machine.log.activity(named: "workout") == nil)
    }
  }

  @Test func aChangeStampedAFewMinutesAheadIsAppliedAndReportedAsClockSkew() throws {
    let ahead = try Machine(folder, "ahead", remote: remote, skewMilliseconds: 40 * 60_000)
    let b = try Machine(folder, "b", remote: remote)
    try ahead.log.add(NewEntry(activityID: snack, time: time(1), note: "from the near future"))
    try ahead.sync()
    let report = try b.sync()
    #expect(try b.log.entries(EntryQuery()).map(\.note) == ["from the near future"])
    #expect(report.held.isEmpty)
    let skew = try #require(report.clockSkewMilliseconds)
    #expect(skew > 39 * 60_000)
    #expect(
      try b.store.remote(named: "r")?.clockSkewMilliseconds ?? 0
        > SyncEngine.skewWarningMilliseconds)
  }

  @Test func settingsSync() throws {
    let a = try Machine(folder, "a", remote: remote)
    let b = try Machine(folder, "b", remote: remote)
    try a.log.set(.mealGapHours, to: "2.5")
    try a.sync()
    try b.sync()
    #expect(try b.log.value(of: .mealGapHours) == "2.5")
  }

  @Test func aNewMachineStartsFromTheSnapshotAfterCompaction() throws {
    let a = try Machine(folder, "a", remote: remote)
    for hour in 0..<30 {
      try a.log.add(NewEntry(activityID: snack, time: time(hour), note: "n\(hour)"))
      try a.sync()
    }
    let report = try a.sync(compact: true)
    #expect(report.snapshotWritten != nil)
    let device = try a.store.deviceID
    #expect(try FileRemote(url: remote).batchCount(device: device) == 0)
    try a.log.add(NewEntry(activityID: snack, time: time(31), note: "after"))
    try a.sync()
    let c = try Machine(folder, "c", remote: remote)
    let joined = try c.sync()
    #expect(joined.snapshotMerged == report.snapshotWritten)
    #expect(try c.log.entries(EntryQuery()).count == 31)
    #expect(try c.log.entries(EntryQuery()).last?.note == "after")
  }

  @Test func aBatchMadeButNotSentIsSentLaterWithTheSameBytes() throws {
    let a = try Machine(folder, "a", remote: remote)
    try a.log.add(NewEntry(activityID: snack, time: time(1)))
    try a.store.makeBatches(now: 1)  // as if the sync died right after batching
    let stored = try a.store.outbox(after: 0)
    #expect(stored.count == 1)
    try a.sync()
    let device = try a.store.deviceID
    let onRemote = try Data(
      contentsOf: URL(fileURLWithPath: remote + "/devices/\(device)/0000000001.batch"))
    #expect(onRemote == Data(stored[0].bytes))
  }

  @Test func aDifferentRemoteAtTheSameAddressIsRefused() throws {
    let a = try Machine(folder, "a", remote: remote)
    try a.sync()
    try FileManager.default.removeItem(atPath: remote)
    _ = try FileRemote(url: remote).createOrJoin(minimumVersion: LifelogVersion.minimumRemoteWriter)
    let error = try #require(throws: SyncError.self) { try a.sync() }
    guard case .differentRemote = error else {
      Issue.record("expected differentRemote, got \(error)")
      return
    }
    #expect(try a.store.remote(named: "r")?.lastOutcome?.hasPrefix("failed") == true)
  }

  @Test func aRemoteForANewerLifelogIsRefused() throws {
    let a = try Machine(folder, "a", remote: remote)
    let path = remote + "/lifelog-remote.json"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try text.replacingOccurrences(
      of: "\"minVersion\":\"\(LifelogVersion.minimumRemoteWriter)\"",
      with: "\"minVersion\":\"9.0.0\""
    )
    .write(toFile: path, atomically: true, encoding: .utf8)
    let error = try #require(throws: SyncError.self) { try a.sync() }
    #expect(error == .upgradeRequired(remote, minimumVersion: "9.0.0"))
  }
}
