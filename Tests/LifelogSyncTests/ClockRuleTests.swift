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
