import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog export --format ics` read back by a real iCalendar library: Python's `icalendar`
/// (pinned in scripts/python-tools.sh, installed into .build/venv) through scripts/ics-dump.py,
/// which also refuses lines over 75 octets, bare line breaks and folds inside UTF-8 sequences.
@Suite struct CalendarExportTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
  let folder = TemporaryDirectory()

  var environment: [String: String] {
    ["LIFELOG_DB": folder.file("log.db"), "TZ": "Europe/Warsaw"]
  }

  /// A log with four offsets, a note long enough to fold made of 2-, 3- and 4-byte characters,
  /// every character TEXT escapes, durations with and without parts, and one deleted entry.
  static let csv = """
    at,activity,kind,duration,note,tags\r
    2026-11-30T23:30:00-03:00,dinner,meal,,"late, very; late \\ done",travel;x\\y\r
    2026-12-01T08:15:00+01:00,breakfast,meal,0,\(longNote),home\r
    2026-12-01T10:00:00+05:30,walk,exercise,5400,"two\nlines",\r
    2026-12-01T12:00:00+00:00,sleep,sleep,28805,,\r
    2026-12-02T07:00:00+01:00,run,exercise,45,gone,\r

    """
  /// 2-, 3- and 4-byte characters, long enough to fold several times.
  static let longNote = String(repeating: "żółć 日本 🍵 ", count: 12)

  @Test func everyEntryReadsBackWithItsIDStartDurationSummaryAndCategories() throws {
    try importLog()
    let deleted = try lifelog(["list", "--activity", "run", "--format", "json"])
    let deletedID = try #require(
      try JSONSerialization.jsonObject(with: Data(deleted.stdout.utf8)) as? [[String: Any]])
    try lifelog(["delete", try #require(deletedID.first?["id"] as? String)])
    let entries = try jsonLines(try lifelog(["export", "--format", "jsonl"]).stdout)
    #expect(entries.count == 4)
    let events = try dump(try lifelog(["export", "--format", "ics"]).stdout)
    #expect(events.count == entries.count, "one event per live entry, the deleted one left out")
    for (entry, event) in zip(entries, events) {
      let id = try #require(entry["id"] as? String)
      #expect(event["uid"] as? String == id)
      #expect(event["start"] as? String == entry["at"] as? String, "logged local time and offset")
      #expect(event["duration"] as? Int == entry["duration"] as? Int, "\(id)")
      let note = entry["note"] as? String
      let activity = try #require(entry["activity"] as? String)
      #expect(event["summary"] as? String == activity + (note.map { ": " + $0 } ?? ""))
      let tags = try #require(entry["tags"] as? [String])
      #expect(event["categories"] as? [String] == [try #require(entry["kind"] as? String)] + tags)
      #expect((event["sequence"] as? Int ?? 0) > 0)
      #expect(event["lastModified"] as? Int == event["dtstamp"] as? Int)
    }
    #expect(events.map { $0["offsetMinutes"] as? Int } == [-180, 330, 60, 0])
  }

  @Test func linesAreFoldedWithin75OctetsWithCRLFAndTextIsEscaped() throws {
    try importLog()
    let ics = try lifelog(["export", "--format", "ics", "--output", folder.file("a.ics")])
    #expect(ics.stdout == "Exported 5 entries to '\(folder.file("a.ics"))'\n")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("a.ics")))
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
    #expect(lines.count > 20)
    for line in lines {
      #expect(line.last == 0x0D, "CRLF line ends")
      #expect(line.count - 1 <= 75)
      #expect(String(validating: line.dropLast(), as: UTF8.self) != nil, "no fold inside UTF-8")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("SUMMARY:dinner: late\\, very\\; late \\\\ done\r\n"))
    #expect(text.contains("CATEGORIES:meal,travel,x\\\\y\r\n"))
    #expect(text.contains("SUMMARY:walk: two\\nlines\r\n"))
    #expect(text.contains("\r\n "), "the long note is folded")
    #expect(text.contains("DTSTART;TZID=Etc/GMT-1:20261201T081500\r\n"))
    #expect(text.contains("DTSTART;TZID=UTC+0530:20261201T100000\r\n"))
    #expect(text.contains("DURATION:PT8H0M5S\r\n"))
    #expect(text.contains("DURATION:PT0S\r\n"))
    #expect(try dump(text).count == 5)
  }

  @Test func aNewerExportKeepsTheUIDsAndRaisesTheSequenceOfWhatChanged() throws {
    try importLog()
    let before = try dump(try lifelog(["export", "--format", "ics"]).stdout)
    // SEQUENCE and LAST-MODIFIED count whole seconds: edit in the next second of the wall clock.
    let second = Int(Date().timeIntervalSince1970)
    while Int(Date().timeIntervalSince1970) == second { usleep(20_000) }
    let edited = try #require(before.first?["uid"] as? String)
    try lifelog(["edit", edited, "--note", "early after all"])
    let after = try dump(try lifelog(["export", "--format", "ics"]).stdout)
    #expect(after.map { $0["uid"] as? String } == before.map { $0["uid"] as? String })
    for (old, new) in zip(before, after) {
      let oldSequence = try #require(old["sequence"] as? Int)
      let newSequence = try #require(new["sequence"] as? Int)
      if new["uid"] as? String == edited {
        #expect(newSequence > oldSequence)
        #expect(try #require(new["lastModified"] as? Int) > #require(old["lastModified"] as? Int))
        #expect(new["summary"] as? String == "dinner: early after all")
      } else {
        #expect(newSequence == oldSequence, "unchanged entries keep their SEQUENCE")
      }
    }
  }

  @Test func aRangeSelectsTheEventsAndUnknownFormatsAreRefused() throws {
    try importLog()
    let range = try dump(
      try lifelog(["export", "--format", "ics", "--from", "2026-12-01", "--to", "2026-12-02"])
        .stdout)
    #expect(range.map { $0["summary"] as? String }.count == 4)
    let empty = try lifelog(["export", "--format", "ics", "--from", "2030-01-01"])
    #expect(try dump(empty.stdout).isEmpty)
    #expect(empty.stdout.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
    let bad = try LifelogProcess.run(["export", "--format", "vcal"], environment: environment)
    #expect(bad.exitCode == 64)
    #expect(bad.stderr.contains("Unknown format 'vcal'; use one of: csv, jsonl, ics"))
  }

  /// Many entries over three offsets: the whole file is clean for the library.
  ///
  /// `make bench` runs the same check on 100,000 (scripts/ics-bench.sh), which takes minutes in Python.
  @Test func aLargeExportParsesCleanly() throws {
    var csv = "at,activity,duration,note,tags\n"
    let formatter = ISO8601DateFormatter()
    for index in 0..<5_000 {
      formatter.timeZone = TimeZone(secondsFromGMT: 3600 * (index % 3))
      let at = formatter.string(
        from: Date(timeIntervalSince1970: 1_780_000_000 + 600 * Double(index)))
      csv += "\(at),walk,\(index % 7200),note \(index) ünï,tag\(index % 10)\n"
    }
    let imported = try LifelogProcess.run(["import", "-"], environment: environment, input: csv)
    #expect(imported.exitCode == 0, "\(imported)")
    let file = folder.file("big.ics")
    try lifelog(["export", "--format", "ics", "--output", file])
    let output = try Subprocess.run(
      try Self.python(), [Self.repository + "/scripts/ics-dump.py", "--count", file])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout == "{\"events\": 5000}\n")
  }

  // MARK: - Helpers

  private func importLog() throws {
    let imported = try LifelogProcess.run(
      ["import", "-"], environment: environment, input: Self.csv)
    #expect(imported.exitCode == 0, "\(imported)")
  }

  @discardableResult
  private func lifelog(_ arguments: [String]) throws -> CommandResult {
    let result = try LifelogProcess.run(arguments, environment: environment)
    #expect(result.exitCode == 0, "\(arguments): \(result)")
    return result
  }

  private func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  /// The events `icalendar` reads from `text`, in file order; the test fails if it is not clean.
  private func dump(_ text: String) throws -> [[String: Any]] {
    let file = folder.file("dump-\(UUID().uuidString).ics")
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    let output = try Subprocess.run(
      try Self.python(), [Self.repository + "/scripts/ics-dump.py", file])
    try #require(output.status == 0, "ics-dump.py: \(output.stderr)")
    return try jsonLines(output.stdout)
  }

  /// The venv's python with `icalendar`, installed by scripts/python-tools.sh the first time.
  static func python() throws -> String {
    let output = try Subprocess.run("/bin/sh", [repository + "/scripts/python-tools.sh"])
    try #require(output.status == 0, "scripts/python-tools.sh: \(output.stderr)")
    return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
