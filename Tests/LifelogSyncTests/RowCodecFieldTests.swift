import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

@testable import LifelogSync

/// Whole rows between the local tables and ``RowChange``: what is written reads back the same, in
/// a real log, and the per-field merge keeps the larger stamp of each field.
@Suite struct RowCodecFieldTests {
  let folder = TemporaryDirectory(prefix: "lifelog-rowcodec")
  static let device = "aaaaaaaa-0000-4000-8000-000000000001"

  static func stamp(_ milliseconds: Int64, _ counter: Int = 0) -> String {
    Stamp.make(milliseconds: 1_780_000_000_000 + milliseconds, counter: counter, device: device)
  }

  func roundTrip(_ change: RowChange) throws -> RowChange? {
    let store = try LogStore(path: folder.file("log.db"))
    try RowCodec.write(change, in: store.database)
    return try RowCodec.read(change.entity, id: change.id, in: store.database)
  }

  @Test func anEntryWithEveryFieldSetReadsBackAsItWasWritten() throws {
    let store = try LogStore(path: folder.file("log.db"))
    let activity = try store.requireActivity(named: "lunch").id
    let entry = RowChange(
      entity: .entry, id: "0f0e0d0c-0000-4000-8000-000000000001",
      values: [
        .text(activity), .time(LoggedTime(instant: 1_780_000_000, offsetMinutes: -300)),
        .integer(1800), .text("soup, \"hot\""), .real(1.5), .tags(["home", "work"]),
        .text("import.csv"), .flag(false),
      ],
      stamps: FieldStamps(
        decoding: (1...8).map { Self.stamp(Int64($0)) }.joined(separator: ","),
        count: 8))
    #expect(try roundTrip(entry) == entry)
  }

  @Test func anEntryWithOptionalFieldsEmptyReadsBackWithThemNull() throws {
    let store = try LogStore(path: folder.file("log.db"))
    let activity = try store.requireActivity(named: "snack").id
    let entry = RowChange(
      entity: .entry, id: "0f0e0d0c-0000-4000-8000-000000000002",
      values: [
        .text(activity), .time(LoggedTime(instant: 1_780_000_000, offsetMinutes: 60)), .null,
        .null, .null, .tags([]), .null, .flag(true),
      ],
      stamps: FieldStamps(count: 8, stamp: Self.stamp(1)))
    #expect(try roundTrip(entry) == entry)
  }

  @Test func anActivityAndASettingReadBackAsTheyWereWritten() throws {
    let activity = RowChange(
      entity: .activity, id: "0f0e0d0c-0000-4000-8000-0000000000a1",
      values: [.text("Swim"), .text("exercise"), .text("km"), .null, .flag(true), .flag(false)],
      stamps: FieldStamps(count: 6, stamp: Self.stamp(2)))
    #expect(try roundTrip(activity) == activity)
    let setting = RowChange(
      entity: .setting, id: "mealGapHours", values: [.text("2.5")],
      stamps: FieldStamps(count: 1, stamp: Self.stamp(3)))
    #expect(try roundTrip(setting) == setting)
  }

  @Test func aRowThatIsNotThereReadsAsNil() throws {
    let store = try LogStore(path: folder.file("log.db"))
    #expect(try RowCodec.read(.entry, id: "missing", in: store.database) == nil)
  }

  @Test func mergeKeepsTheLargerStampOfEachFieldSeparately() throws {
    let mine = RowChange(
      entity: .activity, id: "x",
      values: [.text("tea"), .text("meal"), .null, .null, .flag(false), .flag(false)],
      stamps: FieldStamps(
        decoding: [5, 1, 1, 1, 1, 1].map { Self.stamp($0) }.joined(separator: ","), count: 6))
    // Equal stamps mean the same write, so those fields hold the same value on both sides.
    let theirs = RowChange(
      entity: .activity, id: "x",
      values: [.text("Tea"), .text("other"), .text("cups"), .null, .flag(false), .flag(false)],
      stamps: FieldStamps(
        decoding: [4, 2, 2, 1, 1, 0].map { Self.stamp($0) }.joined(separator: ","), count: 6))
    let merged = try #require(RowCodec.merge(theirs, into: mine))
    #expect(
      merged.values == [
        .text("tea"), .text("other"), .text("cups"), .null, .flag(false), .flag(false),
      ])
    #expect(merged.stamps.stamps == [5, 2, 2, 1, 1, 1].map { Self.stamp($0) })
    // Merging in the other direction gives the same row: the rule depends only on the stamps.
    #expect(RowCodec.merge(mine, into: theirs) == merged)
  }

  @Test func mergeReturnsNilWhenTheRowAlreadyHoldsEverything() {
    let row = RowChange(
      entity: .setting, id: "mealGapHours", values: [.text("3")],
      stamps: FieldStamps(count: 1, stamp: Self.stamp(9)))
    var older = row
    older.values = [.text("4")]
    older.stamps = FieldStamps(count: 1, stamp: Self.stamp(8))
    #expect(RowCodec.merge(row, into: row) == nil)
    #expect(RowCodec.merge(older, into: row) == nil)
    #expect(RowCodec.merge(row, into: nil) == row)
  }
}
