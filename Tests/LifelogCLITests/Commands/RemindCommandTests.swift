import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Testing

/// `lifelog remind` as cron runs it: every minute, with a fixed clock (`LIFELOG_NOW` in the
/// binary, the in-process clock here), across a whole day with meals, sleeps and quiet hours.
///
/// The minute loop runs in process (1,680 runs of the real binary would take minutes); the same
/// command runs as a binary, a few times and twice at once, in `RemindBinaryTests`.
@Suite struct RemindCommandTests {
  let fixture = CLIFixture(now: "2026-12-02T04:00:00+01:00")

  /// Meals and sleeps of the day, each logged at the minute it happens.
  static let day: [(at: String, arguments: [String])] = [
    ("2026-12-02T07:40:00+01:00", ["add", "breakfast", "oatmeal"]),
    ("2026-12-02T12:30:00+01:00", ["add", "lunch", "soup"]),
    ("2026-12-02T14:00:00+01:00", ["add", "sleep", "nap", "--duration", "1h30m"]),
    ("2026-12-02T16:00:00+01:00", ["add", "snack", "apple"]),
    ("2026-12-02T19:30:00+01:00", ["add", "dinner", "fish"]),
    ("2026-12-02T23:00:00+01:00", ["add", "sleep", "--duration", "7h30m"]),
  ]

  @Test func runEveryMinuteForADayItRemindsExactlyOncePerGapAndNeverAfterTheMeal() throws {
    fixture.run("settings", "set", "remindBeforeMinutes", "15")
    fixture.run("add", "dinner", "--at", "2026-12-01T19:00:00+01:00")
    fixture.run("add", "sleep", "--at", "2026-12-01T23:00:00+01:00", "--duration", "8h")
    var cli = fixture.cli
    var reminders: [String] = []
    var pending = Self.day
    let start = InProcessCLI.instant("2026-12-02T04:00:00+01:00")
    let end = InProcessCLI.instant("2026-12-03T08:00:00+01:00")
    var minute = start
    while minute < end {
      cli.now = minute
      while let next = pending.first, InProcessCLI.instant(next.at) == minute {
        #expect(cli.run(next.arguments).exitCode == 0)
        pending.removeFirst()
      }
      let result = cli.run(["remind"])
      #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
      if !result.stdout.isEmpty {
        reminders.append(
          LoggedTime(instant: minute, offsetMinutes: 60).local.timeDescription + " " + result.stdout
        )
      }
      minute += 60
    }
    // 06:45 (15 min before the first meal was due) is in quiet hours and the night's sleep: 07:00.
    // 10:25 for 10:40; not again while breakfast's gap stays open. 15:15 falls in the nap: 15:30.
    // 18:45 for 19:00. Dinner's gap (22:15) falls in quiet hours; the next day's first: 07:00.
    #expect(
      reminders == [
        "07:00 A meal is due now: the last was dinner 12h ago\n",
        "10:25 A meal is due at Wed 2026-12-02 10:40, in 15m: the last was breakfast 2h45m ago\n",
        "15:30 A meal is due now: the last was lunch 3h ago\n",
        "18:45 A meal is due at Wed 2026-12-02 19:00, in 15m: the last was snack 2h45m ago\n",
        "07:00 A meal is due now: the last was dinner 11h30m ago\n",
      ], "\(reminders)")
  }

  @Test func aRemindStartedWhileAnotherHoldsTheLockStaysSilent() throws {
    fixture.run("add", "lunch", "--at", "2026-12-02T00:30:00+01:00")
    var cli = fixture.cli
    cli.now = InProcessCLI.instant("2026-12-02T12:00:00+01:00")
    do {
      let held = try SyncLock(path: cli.databasePath + ".remind-lock")
      let result = cli.run(["remind"])
      #expect(result.exitCode == 0 && result.stdout.isEmpty, "\(result)")
      withExtendedLifetime(held) {}
    }
    #expect(cli.run(["remind"]).stdout.hasPrefix("A meal was due"))
    #expect(cli.run(["remind"]).stdout.isEmpty)
  }

  @Test func claimingAGapTwiceClaimsItOnce() throws {
    let store = try LogStore(path: fixture.cli.databasePath)
    #expect(try store.claimReminder(gap: "a@1", at: 1))
    #expect(try !store.claimReminder(gap: "a@1", at: 2))
    #expect(try store.claimReminder(gap: "b@3", at: 3))
    #expect(try store.remindedGap() == "b@3")
  }

  @Test func execRunsTheCommandWithTheMessageAndNotifySaysWhyNot() throws {
    fixture.run("add", "lunch", "--at", "2026-12-02T00:30:00+01:00")
    var cli = fixture.cli
    cli.now = InProcessCLI.instant("2026-12-02T12:00:00+01:00")
    let runtime = fixture.folder.file("runtime")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    cli.environment = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime]
    let file = fixture.folder.file("message.txt")
    let result = cli.run([
      "remind", "--notify", "--exec", "printf '%s' \"$LIFELOG_MESSAGE\" > '\(file)'; echo sent",
    ])
    #expect(result.exitCode == 0, "\(result)")
    #expect(
      result.stdout.hasPrefix(
        "A meal was due at Wed 2026-12-02 07:00, 5h ago: the last was lunch 11h30m ago\n")
        && result.stdout.hasSuffix("\nsent\n"))
    #expect(
      try String(contentsOfFile: file, encoding: .utf8)
        == String(result.stdout.split(separator: "\n")[0]))
    #expect(result.stderr.contains("Note: no desktop notification: no session bus"), "\(result)")
  }

  /// The notes on stderr about delivering a reminder (no session bus, a failing `--exec`) are in
  /// the reminder's language, as the reminder is.
  @Test(arguments: [
    (
      "pl", "Posiłek należał się o",
      "Uwaga: bez powiadomienia na pulpicie: brak magistrali sesji (DBUS_SESSION_BUS_ADDRESS nie",
      "Uwaga: polecenie --exec zakończyło się z kodem 3\n"
    ),
    (
      "en", "A meal was due at", "Note: no desktop notification: no session bus",
      "Note: the --exec command exited with status 3\n"
    ),
  ])
  func theNotesOnStderrAreInTheRemindersLanguage(
    language: String, reminder: String, noBus: String, failed: String
  ) throws {
    fixture.run("add", "lunch", "--at", "2026-12-02T00:30:00+01:00")
    var cli = fixture.cli
    cli.now = InProcessCLI.instant("2026-12-02T12:00:00+01:00")
    let runtime = fixture.folder.file("runtime")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    cli.environment = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime]
    let result = cli.run(["remind", "--lang", language, "--notify", "--exec", "exit 3"])
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout.hasPrefix(reminder), "\(result)")
    #expect(result.stderr.contains(noBus) && result.stderr.contains(failed), "\(result)")
    #expect(result.stderr.contains(runtime + "/bus"), "\(result)")
    if language == "pl" { #expect(!result.stderr.contains("Note"), "\(result)") }
  }

  @Test(arguments: [
    (["settings", "set", "remindQuietHours", "22:00"], "remindQuietHours must be"),
    (["settings", "set", "remindBeforeMinutes", "181"], "from 0 to 180"),
    (["settings", "set", "remindBeforeMinutes", "-5"], "from 0 to 180"),
    (["remind", "--exec", " "], "--exec needs a shell command"),
  ])
  func badRemindSettingsAndOptionsAreRefused(arguments: [String], fragment: String) {
    expectFailure(fixture, arguments, code: 65, saying: fragment)
  }
}
