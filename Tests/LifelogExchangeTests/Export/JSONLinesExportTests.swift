import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogExchange

/// The JSON Lines writer of `export --format jsonl` on a real log: one object per live entry,
/// oldest first, flushed in whole lines (the binary's output is imported back by
/// LifelogEndToEndTests' round trips).
@Suite struct JSONLinesExportTests {
  let folder = TemporaryDirectory()

  @Test func everyLiveEntryIsALineInTimeOrderFlushedInWholeLines() throws {
    let store = try LogStore(path: folder.file("log.db"))
    let breakfast = try store.requireActivity(named: "breakfast")
    let notes = ["late \"toast\"", "żurek\nz jajkiem", "early"]
    for (index, note) in notes.enumerated() {
      _ = try store.add(
        NewEntry(
          activityID: breakfast.id,
          time: LoggedTime(instant: 1_796_000_000 - Int64(index) * 86_400, offsetMinutes: 60),
          duration: 600, note: note, tags: ["home"]))
    }
    var pieces: [[UInt8]] = []
    let count = try store.exportJSONLines(flushSize: 16) { pieces.append($0) }
    #expect(count == 3)
    #expect(pieces.count == 4, "a flush per line past 16 bytes, then the empty rest")
    for piece in pieces.dropLast() { #expect(piece.last == 0x0A) }
    let text = try #require(String(validating: pieces.joined(), as: UTF8.self))
    var expected = ""
    try store.forEachEntry(EntryQuery()) { expected += $0.jsonObject + "\n" }
    #expect(text == expected)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[0].contains("\"note\":\"early\""))
    #expect(lines[1].contains("\"note\":\"żurek\\nz jajkiem\""))
    #expect(lines[2].hasPrefix("{\"id\":\""))
  }

  @Test func theRangeKeepsTheEntriesFromItsStartAndBeforeItsEnd() throws {
    let store = try LogStore(path: folder.file("range.db"))
    let walk = try store.requireActivity(named: "walk")
    for day in 0..<3 {
      _ = try store.add(
        NewEntry(
          activityID: walk.id,
          time: LoggedTime(instant: 1_796_000_000 + Int64(day) * 86_400, offsetMinutes: 0)))
    }
    var bytes: [UInt8] = []
    let count = try store.exportJSONLines(
      from: 1_796_000_000 + 86_400, to: 1_796_000_000 + 2 * 86_400
    ) { bytes += $0 }
    #expect(count == 1)
    #expect(bytes.filter { $0 == 0x0A }.count == 1)
  }
}
