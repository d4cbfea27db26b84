import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogExchange

/// The iCalendar writer of `export --format ics` on a real log: folding, escaping, time zones and
/// the stamp-derived properties (the binary's output is read back by `icalendar` in
/// LifelogEndToEndTests.CalendarExportTests).
@Suite struct CalendarBytesTests {
  let folder = TemporaryDirectory()

  /// The export of one entry, as physical lines (CRLF removed).
  private func export(
    note: String?, tags: [String] = [], offset: Int = 60, log: String = "log.db"
  ) throws -> [String] {
    let store = try LogStore(path: folder.file(log))
    let breakfast = try store.requireActivity(named: "breakfast")
    _ = try store.add(
      NewEntry(
        activityID: breakfast.id, time: LoggedTime(instant: 1_796_000_000, offsetMinutes: offset),
        duration: 3725, note: note, tags: tags))
    var bytes: [UInt8] = []
    let count = try store.exportCalendar(now: 0, flushSize: 64) { bytes += $0 }
    #expect(count == 1)
    #expect(bytes.suffix(2) == [0x0D, 0x0A])
    let text = try #require(String(validating: bytes, as: UTF8.self))
    return text.split(separator: "\r\n").map(String.init)
  }

  /// The content line of a property, unfolded (RFC 5545 §3.1: drop CRLF and one space).
  private func property(_ name: String, in lines: [String]) -> String? {
    guard
      let start = lines.firstIndex(where: { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") })
    else { return nil }
    var value = lines[start]
    for line in lines[(start + 1)...] {
      guard line.hasPrefix(" ") else { break }
      value += line.dropFirst()
    }
    return value
  }

  @Test func aLongNoteOfMultibyteCharactersFoldsWithin75OctetsWithoutSplittingOne() throws {
    // 1-, 2-, 3- and 4-byte characters, so folds fall next to every kind of sequence.
    let note = String(repeating: "aż日🍵", count: 40)
    let lines = try export(note: note)
    for line in lines {
      #expect(line.utf8.count <= 75, "\(line)")
    }
    #expect(lines.filter { $0.hasPrefix(" ") }.count == 5, "419 octets in 75-octet lines")
    #expect(property("SUMMARY", in: lines) == "SUMMARY:breakfast: " + note)
  }

  @Test func aLineOf75OctetsStaysWholeAndOneOf76Folds() throws {
    let fits = String(repeating: "x", count: 75 - "SUMMARY:breakfast: ".utf8.count)
    #expect(try export(note: fits).contains("SUMMARY:breakfast: " + fits))
    let lines = try export(note: fits + "y", log: "longer.db")
    #expect(lines.contains("SUMMARY:breakfast: " + fits))
    #expect(lines.contains(" y"))
  }

  @Test func textEscapesBackslashSemicolonCommaAndLineBreaksAndDropsControls() throws {
    let lines = try export(note: "a\\b;c,d\r\ne\nf\rg\u{1}h\ti", tags: ["x\\y", "home"])
    #expect(property("SUMMARY", in: lines) == "SUMMARY:breakfast: a\\\\b\\;c\\,d\\ne\\nf\\ngh\ti")
    #expect(property("CATEGORIES", in: lines) == "CATEGORIES:meal,x\\\\y,home")
  }

  @Test func theEventCarriesItsOffsetsZoneDurationAndStamp() throws {
    let lines = try export(note: nil, offset: 330)
    #expect(lines.contains("TZID:UTC+0530"))
    #expect(lines.contains("TZOFFSETTO:+0530"))
    #expect(lines.contains("DTSTART;TZID=UTC+0530:20261130T062320"))
    #expect(lines.contains("DURATION:PT1H2M5S"))
    #expect(lines.contains("SUMMARY:breakfast"))
    let stamp = try #require(property("LAST-MODIFIED", in: lines))
    #expect(property("DTSTAMP", in: lines) == "DTSTAMP" + stamp.dropFirst("LAST-MODIFIED".count))
    let sequence = try #require(property("SEQUENCE", in: lines).flatMap { Int($0.dropFirst(9)) })
    #expect(sequence > 200_000_000, "seconds since 2020 of a stamp taken now")
  }

  @Test func zoneNamesAreEtcZonesForWholeHoursAndUTCOffsetsOtherwise() {
    #expect(CalendarBytes.tzid(0) == "Etc/GMT")
    #expect(CalendarBytes.tzid(60) == "Etc/GMT-1")
    #expect(CalendarBytes.tzid(-300) == "Etc/GMT+5")
    #expect(CalendarBytes.tzid(840) == "Etc/GMT-14")
    #expect(CalendarBytes.tzid(-720) == "Etc/GMT+12")
    #expect(CalendarBytes.tzid(900) == "UTC+1500", "no Etc zone is 15 hours ahead")
    #expect(CalendarBytes.tzid(-570) == "UTC-0930")
    #expect(CalendarBytes.utcOffset(0) == "+0000")
  }

  @Test func sequenceCountsSecondsFrom2020WithinA32BitInteger() {
    #expect(CalendarBytes.sequence(milliseconds: 0) == 0)
    #expect(CalendarBytes.sequence(milliseconds: 1_577_836_801_999) == 1)
    #expect(CalendarBytes.sequence(milliseconds: Stamp.maximumMilliseconds) == Int64(Int32.max))
  }

  @Test func theNewestWellFormedStampOfARowIsItsLastWrite() {
    func newest(_ text: String) -> Int64? {
      var text = text
      return text.withUTF8 { CalendarBytes.newestMilliseconds(stamps: $0) }
    }
    let old = Stamp.make(milliseconds: 1_000, counter: 0, device: "ab")
    let new = Stamp.make(milliseconds: 5_000, counter: 3, device: "cd")
    #expect(newest(old) == 1_000)
    #expect(newest([old, new, old].joined(separator: ",")) == 5_000)
    #expect(newest(old + ",zzzzzzzzzzzzzzzzzzzzzzzzzzzz") == 1_000, "a malformed stamp is skipped")
    #expect(newest("") == nil)
  }
}
