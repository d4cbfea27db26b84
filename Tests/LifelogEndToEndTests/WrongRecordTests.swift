import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// Commands that used to write a wrong record without a word, through the real binary: an activity
/// of a kind nobody chose, an edited time moved to another day.
@Suite struct WrongRecordTests {
  let folder = TemporaryDirectory()

  func environment(_ now: String) -> [String: String] {
    ["LIFELOG_DB": folder.file("lifelog.db"), "TZ": "Europe/Warsaw", "LIFELOG_NOW": now]
  }

  func run(
    _ arguments: [String], at now: String = "2026-12-01T12:30:00+01:00", input: String? = nil
  ) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment(now), input: input)
  }

  @Test func aNewActivityWithoutKindIsRefusedInAScript() throws {
    let result = try run(["activity", "add", "obiad"])
    #expect(result.exitCode == 64, "\(result)")
    #expect(result.stderr.contains("--kind meal"), "\(result)")
    #expect(!(try run(["activity", "list"]).stdout.contains("obiad")), "nothing was created")
    let chosen = try run(["activity", "add", "obiad", "--kind", "meal"])
    #expect(chosen.stdout == "Created activity 'obiad' (meal)\n", "\(chosen)")
  }

  @Test func aNewActivityWithoutKindIsAskedAtATerminalMealFirst() throws {
    var environment = environment("2026-12-01T12:30:00+01:00")
    environment["PATH"] = "/usr/bin:/bin"
    environment["HOME"] = folder.path
    let script = "\"$0\" \"$@\"; echo \"exit=$?\"; sleep 60"
    let terminal = try TerminalSession(
      ["/bin/sh", "-c", script, LifelogProcess.binaryPath, "activity", "add", "obiad"],
      environment: environment, folder: folder)
    try terminal.waitFor("Kind of 'obiad' (meal, exercise, sleep, medication, other) [meal]")
    try terminal.press("Enter")
    let screen = try terminal.waitFor("exit=")
    #expect(screen.contains("Created activity 'obiad' (meal)"), "\(screen)")
    #expect(screen.contains("exit=0"), "\(screen)")
  }

  @Test func importRefusesNewActivitiesOfNoKindAndItsDryRunNamesTheKind() throws {
    let rows = "at,activity,note\n2026-12-01 13:00,obiad,zupa\n2026-12-01 08:00,breakfast,\n"
    let refused = try run(["import", "-", "--format", "csv"], input: rows)
    #expect(refused.exitCode == 65, "\(refused)")
    #expect(refused.stderr.contains("'obiad' is new"), "\(refused)")
    #expect(refused.stderr.contains("--kind"), "\(refused)")
    #expect(try run(["list", "--format", "csv"]).stdout.split(separator: "\n").count == 1)
    let dryRun = try run(
      ["import", "-", "--format", "csv", "--dry-run", "--kind", "meal"], input: rows)
    #expect(dryRun.exitCode == 0, "\(dryRun)")
    #expect(dryRun.stdout.contains("Would create activities: obiad (meal)"), "\(dryRun)")
  }

  @Test func anActivityMadeAMealLaterTakesItsEntriesAlong() throws {
    #expect(try run(["activity", "add", "obiad", "--kind", "other"]).exitCode == 0)
    #expect(try run(["add", "obiad", "zupa", "--at", "12:00"]).exitCode == 0)
    #expect(try run(["due"], at: "2026-12-01T13:00:00+01:00").stdout.contains("No meals"))
    let edited = try run(["activity", "edit", "obiad", "--kind", "meal"])
    #expect(edited.stdout == "Updated activity 'obiad' (meal)\n", "\(edited)")
    let due = try run(["due"], at: "2026-12-01T13:00:00+01:00")
    #expect(due.stdout.contains("obiad"), "\(due)")
  }

  @Test func editAtABareTimeKeepsTheEntrysOwnDay() throws {
    #expect(try run(["add", "lunch", "soup", "--at", "12:30"]).exitCode == 0)
    let nextMorning = "2026-12-02T09:00:00+01:00"
    let edited = try run(["edit", "last", "--at", "13:15"], at: nextMorning)
    #expect(edited.exitCode == 0, "\(edited)")
    #expect(edited.stdout.contains("Tue 2026-12-01 13:15"), "\(edited)")
    #expect(edited.stderr.isEmpty, "\(edited)")
    let future = try run(["edit", "last", "--at", "today 13:15"], at: nextMorning)
    #expect(future.stdout.contains("Wed 2026-12-02 13:15"), "\(future)")
    #expect(future.stderr.contains("is in the future"), "\(future)")
  }

  @Test func aTimeWrittenAsWordsIsBlamedAsATimeNotADuration() throws {
    let result = try run(["add", "lunch", "--at", "a bit ago"])
    #expect(result.exitCode != 0)
    #expect(result.stderr.contains("Cannot read time 'a bit ago'"), "\(result)")
    #expect(!result.stderr.contains("duration"), "\(result)")
  }

  @Test func aSyncNamesTheLocalEditALaterRemoteEditReplaced() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    let remote = folder.file("usb/lifelog")
    let lunch = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    try laptop.expectSuccess("sync")
    try desktop.expectSuccess("remote", "add", "usb", remote)
    try desktop.expectSuccess("sync")
    try laptop.expectSuccess("edit", lunch, "--note", "soup, bread")
    try desktop.expectSuccess("edit", lunch, "--note", "zupa")
    try desktop.expectSuccess("sync")

    let synced = try laptop.expectSuccess("sync")
    #expect(synced.stdout.contains("Replaced 1 value edited here"), "\(synced)")
    let line = "entry \(lunch.prefix(8)) note: 'soup, bread' (here, "
    #expect(synced.stdout.contains(line), "\(synced)")
    #expect(synced.stdout.contains("replaced by 'zupa' (device "), "\(synced)")
    let status = try laptop.expectSuccess("status")
    #expect(status.stdout.contains(line), "\(status)")
    let shown = try laptop.expectSuccess("show", lunch)
    #expect(shown.stdout.contains("replaced  note 'soup, bread' (here, "), "\(shown)")
    #expect(try laptop.expectSuccess("sync").stdout.contains("Replaced") == false)
    #expect(try laptop.expectSuccess("status").stdout.contains(line), "status keeps the list")
  }

  @Test func todayIsShownUnfinishedAndNotCountedOnRhythm() throws {
    let times = ["08:00", "10:30", "13:00", "15:30", "18:00"].map { "2026-12-01 \($0)" }
    for time in times + ["2026-12-02 08:00"] {
      #expect(
        try run(["add", "snack", "--at", time], at: "2026-12-02T09:00:00+01:00").exitCode == 0)
    }
    let morning = "2026-12-02T09:00:00+01:00"
    let full = try run(["report", "meals", "--from", "2026-12-01"], at: morning)
    #expect(full.stdout.contains("Wed 2026-12-02 (so far): 1 meal"), "\(full)")
    #expect(full.stdout.contains("Days on rhythm      1 of 1 "), "\(full)")
    #expect(full.stdout.contains("today not counted"), "\(full)")
    let compact = try run(["report", "--from", "2026-12-01"], at: morning)
    #expect(compact.stdout.contains("Wed 2026-12-02 (so far)"), "\(compact)")
    #expect(compact.stdout.contains("1 of 1 days on rhythm (today not counted"), "\(compact)")
    let nextDay = try run(
      ["report", "meals", "--from", "2026-12-01", "--to", "2026-12-02"],
      at: "2026-12-03T09:00:00+01:00")
    #expect(nextDay.stdout.contains("Days on rhythm      2 of 2 "), "\(nextDay)")
  }
}
