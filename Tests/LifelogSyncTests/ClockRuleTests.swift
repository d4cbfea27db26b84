import Foundation
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Testing

/// The clock rule of docs/sync-protocol.md §2 through the sync engine and a real folder: a batch
/// stamped more than an hour ahead of the reader's wall clock waits, holds back only its own
/// device, and is merged once the reader's clock is within the hour.
@Suite struct ClockRuleTests {
  let folder = TemporaryDirectory()
  var remote: String { folder.file("remote") }
  let snack = ActivityName.derivedID(for: "snack")
  static let day: Int64 = 86_400_000

  private func time(_ hour: Int) -> LoggedTime {
    LoggedTime(instant: 1_764_662_400 + Int64(hour) * 3600, offsetMinutes: 60)
  }

  @Test func aBatchStampedADayAheadWaitsUntilTheReadersClockCatchesUp() throws {
    let ahead = try Machine(folder, "ahead", remote: remote, skewMilliseconds: Self.day)
    let reader = try Machine(folder, "reader", remote: remote)
    try ahead.log.add(NewEntry(activityID: snack, time: time(1), note: "from tomorrow"))
    try ahead.sync()

    let held = try reader.sync()
    #expect(held.pulled == 0)
    #expect(held.held.count == 1)
    let batch = try #require(held.held.first)
    #expect(batch.device == (try ahead.store.deviceID) && batch.seq == 1)
    guard case .ahead(let milliseconds) = batch.reason else {
      Issue.record("held for \(batch.reason)")
      return
    }
    #expect(milliseconds > Self.day - Stamp.aheadLimit && milliseconds <= Self.day + 60_000)
    #expect(try reader.entries().isEmpty)
    #expect(try reader.store.remote(named: "r")?.held == [batch])
    #expect(try reader.log.clock().milliseconds <= LogStore.systemMilliseconds() + Stamp.aheadLimit)

    // Still ahead: still held, and asked for again.
    #expect(try reader.sync().held.map(\.seq) == [1])

    reader.skew.milliseconds = Self.day  // the reader's clock reaches the stamp
    let merged = try reader.sync()
    #expect(merged.held.isEmpty)
    #expect(merged.pulled == 1)
    #expect(try reader.entries().map(\.note) == ["from tomorrow"])
    #expect(try reader.store.remote(named: "r")?.held == [])
  }

  @Test func aHeldDeviceHoldsBackOnlyItselfAndItsLaterBatchesWaitBehind() throws {
    let ahead = try Machine(folder, "ahead", remote: remote, skewMilliseconds: Self.day)
    let other = try Machine(folder, "other", remote: remote)
    let reader = try Machine(folder, "reader", remote: remote)
    try ahead.log.add(NewEntry(activityID: snack, time: time(1), note: "ahead 1"))
    try ahead.sync()
    ahead.skew.milliseconds = 0  // its clock set right; what it stamped stays ahead
    try ahead.log.add(NewEntry(activityID: snack, time: time(2), note: "ahead 2"))
    try ahead.sync()
    try other.log.add(NewEntry(activityID: snack, time: time(3), note: "other"))
    try other.sync()

    let report = try reader.sync()
    #expect(report.held.map(\.seq) == [1], "\(report.held)")
    #expect(try reader.entries().map(\.note) == ["other"])

    // The reader's own edits still sync and win on the others.
    let entry = try reader.log.add(NewEntry(activityID: snack, time: time(4), note: "typed later"))
    try reader.sync()
    try other.sync()
    #expect(try other.log.entry(id: entry.id)?.note == "typed later")

    reader.skew.milliseconds = Self.day
    #expect(try reader.sync().pulled == 2)
    #expect(
      try reader.entries().compactMap(\.note).sorted() == [
        "ahead 1", "ahead 2", "other", "typed later",
      ])
  }

  @Test func aSnapshotStampedFarAheadIsHeldAndTheBatchesItCoversWait() throws {
    let ahead = try Machine(folder, "ahead", remote: remote, skewMilliseconds: Self.day)
    try ahead.log.add(NewEntry(activityID: snack, time: time(1), note: "in the snapshot"))
    try ahead.sync(compact: true)
    let reader = try Machine(folder, "reader", remote: remote)
    let report = try reader.sync()
    #expect(report.snapshotMerged == nil)
    #expect(report.held.contains { $0.snapshot != nil && $0.seq == 0 }, "\(report.held)")
    #expect(try reader.entries().isEmpty)
    reader.skew.milliseconds = Self.day
    let merged = try reader.sync()
    #expect(merged.snapshotMerged != nil && merged.held.isEmpty, "\(merged)")
    #expect(try reader.entries().map(\.note) == ["in the snapshot"])
  }

  @Test func aMissingBatchInAFolderHoldsItsDeviceUntilItArrives() throws {
    let writer = try Machine(folder, "writer", remote: remote)
    let reader = try Machine(folder, "reader", remote: remote)
    let entry = try writer.log.add(NewEntry(activityID: snack, time: time(1), note: "kept"))
    try writer.sync()
    try reader.sync()
    _ = try writer.log.setDeleted(true, ids: [entry.id])
    try writer.sync()
    try writer.log.add(NewEntry(activityID: snack, time: time(2), note: "after the gap"))
    try writer.sync()
    let device = try writer.store.deviceID
    let second = remote + "/devices/\(device)/0000000002.batch"
    try FileManager.default.moveItem(atPath: second, toPath: second + ".away")

    let gap = try reader.sync()
    #expect(gap.held == [HeldBatch(device: device, seq: 2, reason: .missing)])
    #expect(try reader.log.entry(id: entry.id)?.deleted == false)
    #expect(try reader.entries().count == 1)

    try FileManager.default.moveItem(atPath: second + ".away", toPath: second)
    let healed = try reader.sync()
    #expect(healed.held.isEmpty && healed.pulled == 2)
    #expect(try reader.log.entry(id: entry.id)?.deleted == true)
  }
}

/// A snapshot held by the clock rule is passed over, not a stop: a folder remote offers the older
/// ones behind it; a remote that offers only its newest snapshot (as `lifelog serve` does) holds
/// there, and the sync still ends (docs/sync-protocol.md §5–§6).
@Suite struct HeldSnapshotTests {
  let folder = TemporaryDirectory()
  var remote: String { folder.file("remote") }
  let snack = ActivityName.derivedID(for: "snack")

  /// A writer's snapshot, then a snapshot two days ahead (named newest) from a machine whose
  /// clock runs ahead, both over compacted batches.
  func twoSnapshots() throws {
    let writer = try Machine(folder, "writer", remote: remote)
    try writer.log.add(
      NewEntry(
        activityID: snack, time: LoggedTime(instant: 1_764_662_400, offsetMinutes: 60),
        note: "in the sound snapshot"))
    try writer.sync(compact: true)
    let ahead = try Machine(folder, "ahead", remote: remote, skewMilliseconds: 2 * 86_400_000)
    try ahead.sync()
    try ahead.log.add(
      NewEntry(
        activityID: snack, time: LoggedTime(instant: 1_764_666_000, offsetMinutes: 60),
        note: "from the day after tomorrow"))
    try ahead.sync(compact: true)
  }

  @Test func aFolderOffersTheOlderSnapshotBehindAHeldOne() throws {
    try twoSnapshots()
    let reader = try Machine(folder, "reader", remote: remote)
    let report = try reader.sync()
    #expect(report.held.contains { $0.snapshot != nil }, "\(report.held)")
    #expect(report.snapshotMerged != nil, "\(report)")
    #expect(try reader.entries().map(\.note) == ["in the sound snapshot"])
  }

  @Test func aRemoteOfferingOnlyItsNewestSnapshotHoldsThereAndTheSyncEnds() throws {
    try twoSnapshots()
    let reader = try Machine(folder, "reader", remote: remote)
    let record = try #require(try reader.store.remote(named: "r"))
    let report = try reader.engine.sync(
      record, with: NewestSnapshotOnly(try FileRemote(url: remote)))
    #expect(report.held.contains { $0.snapshot != nil }, "\(report.held)")
    #expect(report.snapshotMerged == nil, "\(report)")
    #expect(try reader.entries().isEmpty)
  }
}

/// A folder remote that offers only its newest snapshot, as a server does: it does not implement
/// `snapshot(beyond:excluding:passing:skipped:)`, so the protocol's default answers.
final class NewestSnapshotOnly: Remote {
  let folder: FileRemote
  init(_ folder: FileRemote) { self.folder = folder }

  var location: String { folder.location }
  var envelope: BatchEnvelope {
    get { folder.envelope }
    set { folder.envelope = newValue }
  }
  func manifest() throws -> RemoteManifest { try folder.manifest() }
  func push(device: String, seq: Int, bytes: [UInt8]) throws {
    try folder.push(device: device, seq: seq, bytes: bytes)
  }
  func pull(
    after cursor: String, excluding device: String, rowLimit: Int, rules: PullRules
  ) throws -> PullPage {
    try folder.pull(after: cursor, excluding: device, rowLimit: rowLimit, rules: rules)
  }
  func putSnapshot(name: String, bytes: [UInt8]) throws {
    try folder.putSnapshot(name: name, bytes: bytes)
  }
  func snapshot(
    beyond cursor: String, excluding device: String, skipped: inout [String]
  ) throws -> PulledSnapshot? {
    try folder.snapshot(beyond: cursor, excluding: device, skipped: &skipped)
  }
  func batchCount(device: String) throws -> Int { try folder.batchCount(device: device) }
  func deleteBatches(device: String, through seq: Int) throws {
    try folder.deleteBatches(device: device, through: seq)
  }
  func keys() throws -> RemoteKeys? { try folder.keys() }
  func putKeys(_ keys: RemoteKeys) throws { try folder.putKeys(keys) }
}
