import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// Finding things and the smaller slips of a first session, through the real binary: a day to
/// list, report ranges counted back, flags spelled another way, quoted names, quiet prompts, and
/// messages that say what happened.
@Suite struct FindingThingsTests {
  let folder = TemporaryDirectory()

  func environment(_ now: String) -> [String: String] {
    ["LIFELOG_DB": folder.file("lifelog.db"), "TZ": "Europe/Warsaw", "LIFELOG_NOW": now]
  }

  func run(
    _ arguments: [String], at now: String = "2026-12-02T12:30:00+01:00", input: String? = nil
  ) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment(now), input: input)
  }

  @Test func todayAndListTodayShowEveryEntryOfTheDay() throws {
    #expect(try run(["add", "dinner", "--at", "yesterday 19:00"]).exitCode == 0)
    #expect(try run(["add", "breakfast", "--at", "08:00"]).exitCode == 0)
    #expect(try run(["add", "lunch", "--at", "12:00"]).exitCode == 0)
    for arguments in [["today"], ["list", "today"]] {
      let result = try run(arguments)
      #expect(result.exitCode == 0, "\(arguments): \(result)")
      #expect(result.stdout.contains("breakfast") && result.stdout.contains("lunch"), "\(result)")
      #expect(!result.stdout.contains("dinner"), "\(arguments): \(result)")
    }
    let yesterday = try run(["list", "yesterday", "--format", "csv"])
    #expect(yesterday.stdout.split(whereSeparator: \.isNewline).count == 2, "\(yesterday)")
  }

  @Test func reportRangesCountBackInDaysOrWeeks() throws {
    let back = try run(["report", "meals", "--from", "-14d", "--format", "json"])
    #expect(back.exitCode == 0, "\(back)")
    #expect(back.stdout.contains("\"from\":\"2026-11-18\""), "\(back)")
    let last = try run(["report", "meals", "--last", "2w", "--format", "json"])
    #expect(last.exitCode == 0, "\(last)")
    #expect(last.stdout.contains("\"from\":\"2026-11-19\""), "\(last)")
    #expect(last.stdout.contains("\"to\":\"2026-12-02\""), "\(last)")
  }

  @Test func listOnAPipeSaysWhenItStoppedAtTheLimit() throws {
    let rows = (0..<25).map { "2026-12-01T\(10 + $0 / 6):\($0 % 6)0:00+01:00,snack," }
    let csv = "at,activity,note\n" + rows.joined(separator: "\n") + "\n"
    #expect(try run(["import", "-", "--format", "csv"], input: csv).exitCode == 0)
    let cut = try run(["list", "--format", "csv"])
    #expect(cut.stdout.split(whereSeparator: \.isNewline).count == 21, "\(cut)")
    #expect(cut.stderr.contains("stopped at --limit 20"), "\(cut)")
    let json = try run(["list", "--format", "json", "--limit", "30"])
    #expect(json.stderr.isEmpty, "\(json)")
  }

  @Test func nearMissFlagsAreNamedAndAddTakesNote() throws {
    let time = try run(["add", "lunch", "--time", "12:00"])
    #expect(time.exitCode == 64)
    #expect(time.stderr.contains("Unknown option '--time'; did you mean '--at'?"), "\(time)")
    let noted = try run(["add", "lunch", "--note", "soup", "--at", "12:00"])
    #expect(noted.stdout.contains("\"soup\""), "\(noted)")
  }

  @Test func aTwoWordActivityIsNamedInItsQuotedForm() throws {
    #expect(try run(["activity", "add", "green tea", "--kind", "meal"]).exitCode == 0)
    let unquoted = try run(["add", "green", "tea", "with", "honey"])
    #expect(unquoted.exitCode == 65)
    #expect(
      unquoted.stderr.contains("quote it: lifelog add \"green tea\" with honey"), "\(unquoted)")
    let created = try run(["activity", "add", "herbal", "tea", "--kind", "meal"])
    #expect(created.exitCode == 64)
    #expect(created.stderr.contains("lifelog activity add \"herbal tea\""), "\(created)")
  }

  @Test func dueShortIsSilentInQuietHours() throws {
    #expect(try run(["add", "dinner", "--at", "yesterday 19:00"]).exitCode == 0)
    let night = try run(["due", "--short"], at: "2026-12-02T03:30:00+01:00")
    #expect(night.exitCode == 0)
    #expect(night.stdout == "\n", "\(night)")
    let morning = try run(["due", "--short"], at: "2026-12-02T07:30:00+01:00")
    #expect(morning.stdout.hasPrefix("+"), "\(morning)")
  }

  @Test func undoShowsTheStateItRestored() throws {
    #expect(try run(["add", "lunch", "soup", "--at", "12:00"]).exitCode == 0)
    #expect(try run(["edit", "last", "--note", "soup, bread"]).exitCode == 0)
    let undone = try run(["undo"])
    #expect(undone.stdout.contains("Now: "), "\(undone)")
    #expect(undone.stdout.contains("\"soup\"\n"), "\(undone)")
  }

  @Test func smallerSlipsGetClearWords() throws {
    let unknown = try run(["add", "obiad"])
    #expect(unknown.stderr.contains("Unknown activity 'obiad'; to create it, add --kind"))
    let blank = try run(["add", "lunch", "   "])
    #expect(blank.exitCode == 65, "\(blank)")
    #expect(blank.stderr.contains("Note is only spaces"), "\(blank)")
    let status = try run(["status"])
    #expect(status.stdout.contains("not yet synced"), "\(status)")
    let long = String(repeating: "zupa ", count: 1_800)
    #expect(try run(["add", "lunch", long, "--at", "12:00"]).exitCode == 0)
    let table = try run(["list"])
    #expect(table.stdout.count < 1_000, "the table shows a cut note")
    #expect(table.stdout.contains("'lifelog show ID' shows one in full"), "\(table)")
  }

  @Test func aQuietSyncSaysNothingWhileAnotherRuns() throws {
    #expect(try run(["remote", "add", "usb", folder.file("usb")]).exitCode == 0)
    let path = folder.file("lifelog.db.sync-lock")
    if !FileManager.default.fileExists(atPath: path) {
      FileManager.default.createFile(atPath: path, contents: nil)
    }
    let lock = try #require(FileHandle(forWritingAtPath: path))
    defer { try? lock.close() }
    #expect(flock(lock.fileDescriptor, LOCK_EX | LOCK_NB) == 0)
    let quiet = try run(["sync", "--quiet"])
    #expect(quiet.exitCode == 75, "\(quiet)")
    #expect(quiet.stderr.isEmpty, "\(quiet)")
    let loud = try run(["sync"])
    #expect(loud.exitCode == 75 && loud.stderr.contains("another sync is running"), "\(loud)")
  }

  @Test func markdownPutsTheSummaryBeforeTheDays() throws {
    #expect(try run(["add", "breakfast", "--at", "yesterday 08:00"]).exitCode == 0)
    #expect(try run(["add", "lunch", "--at", "yesterday 13:00"]).exitCode == 0)
    for arguments in [["report", "meals"], ["report"]] {
      let markdown = try run(arguments + ["--format", "md", "--from", "-1d"])
      #expect(markdown.exitCode == 0, "\(markdown)")
      let text = markdown.stdout
      let summary = text.range(of: arguments.count == 2 ? "## Summary" : "meals per day")
      let firstDay = text.range(
        of: arguments.count == 2 ? "### Tue 2026-12-01" : "| Tue 2026-12-01")
      #expect(summary != nil && firstDay != nil, "\(text)")
      if let summary, let firstDay {
        #expect(summary.lowerBound < firstDay.lowerBound, "the summary comes first:\n\(text)")
      }
    }
  }

  @Test func theTimelineLegendExplainsOnlyTheMarksThePageShows() throws {
    #expect(try run(["add", "breakfast", "--at", "yesterday 08:00"]).exitCode == 0)
    #expect(try run(["add", "lunch", "--at", "yesterday 10:30"]).exitCode == 0)
    let calm = try run(["report", "meals", "--format", "html", "--from", "-1d"])
    #expect(calm.exitCode == 0, "\(calm)")
    #expect(!calm.stdout.contains("logged away from home</span>"), "no meal was away")
    #expect(!calm.stdout.contains("gap over 3h</span>"), "no gap was flagged")
    #expect(try run(["add", "dinner", "--at", "yesterday 18:00"]).exitCode == 0)
    let flagged = try run(["report", "meals", "--format", "html", "--from", "-1d"])
    #expect(flagged.stdout.contains("gap of 4h or more</span>"), "a gap was flagged, far too long")
    #expect(!flagged.stdout.contains("</svg> gap over 3h</span>"), "no gap was a bit long")
  }
}
