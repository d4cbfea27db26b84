import Foundation
import LifelogCLI
import LifelogCore
import LifelogTestSupport
import Testing

@Suite struct ActivityCommandTests {
  let fixture = CLIFixture()

  @Test func activityAloneListsTheDefaultsWithTheirUse() {
    fixture.run("add", "snack")
    fixture.run("add", "snack", "--at", "-1h")
    let output = fixture.run("activity").stdout
    #expect(output.hasPrefix("NAME       KIND      UNIT  TARGET  ENTRIES  LAST"))
    #expect(output.contains("\nsnack      meal                          2  Wed 2026-12-02 12:00"))
    #expect(output.contains("\nsleep      sleep                         0"))
  }

  @Test func addEditRenameArchiveAndUnarchive() {
    #expect(
      fixture.run(
        "activity", "add", "Swim", "--kind", "exercise", "--unit", "km", "--target", "2 km/week"
      ).stdout
        == "Created activity 'Swim' (exercise)\n")
    #expect(
      fixture.run("activity", "edit", "swim", "--target", "90 min/week").stdout
        == "Updated activity 'Swim' (exercise, unit km, target 90 min/week)\n")
    #expect(
      fixture.run("activity", "rename", "swim", "Pool").stdout
        == "Renamed activity 'swim' to 'Pool'\n")
    #expect(fixture.run("activity", "archive", "pool").stdout == "Archived activity 'Pool'\n")
    #expect(
      fixture.run("activity", "list", "--format", "csv").stdout.contains(
        "Pool,exercise,km,90 min/week,0,,true\r\n"))
    #expect(fixture.run("activity", "unarchive", "POOL").stdout == "Unarchived activity 'Pool'\n")
    let json = fixture.run("activity", "list", "--format", "json").stdout
    #expect(
      json.contains(
        "\"name\":\"Pool\",\"kind\":\"exercise\",\"unit\":\"km\",\"target\":\"90 min/week\",\"archived\":false,\"entries\":0,\"lastAt\":null"
      ))
  }

  @Test(arguments: [
    (["activity", "add", "Lunch"], 65, "already exists"),
    (["activity", "add", "x", "--kind", "snackish"], 65, "Unknown kind 'snackish'"),
    (["activity", "add", "x", "--target", "lots"], 65, "Cannot read target 'lots'"),
    (["activity", "add", "x", "--unit", "k m"], 65, "must be a short word"),
    (["activity", "rename", "walk", "run"], 65, "already exists"),
    (["activity", "rename", "wlak", "stroll"], 65, "did you mean 'walk'?"),
    (["activity", "archive", "nothing-like-it"], 65, "Unknown activity"),
    (["activity", "edit", "walk"], 64, "Nothing to change"),
    (["activity", "edit", "walk", "--target", "10 km/week"], 65, "has no unit"),
    (["activity", "frobnicate"], 64, "Unexpected argument 'frobnicate'"),
  ])
  func badActivityCommandsAreRefused(arguments: [String], code: Int32, fragment: String) {
    expectFailure(fixture, arguments, code: code, saying: fragment)
  }
}

@Suite struct SettingsCommandTests {
  let fixture = CLIFixture()

  @Test func settingsListGetAndSet() {
    #expect(fixture.run("settings").stdout.contains("mealGapHours         3 (default)"))
    #expect(fixture.run("settings", "set", "mealgaphours", "2.5").stdout == "mealGapHours = 2.5\n")
    #expect(fixture.run("settings", "get", "mealGapHours").stdout == "2.5\n")
    #expect(
      fixture.run("settings", "set", "name", "Ada Lovelace").stdout == "name = Ada Lovelace\n")
    #expect(
      fixture.run("settings", "--format", "json").stdout
        == "{\"mealGapHours\":\"2.5\",\"mealGapMinHours\":\"2\",\"dayStartsAt\":\"04:00\",\"weekStartsOn\":\"monday\",\"name\":\"Ada Lovelace\","
        + "\"remindQuietHours\":\"22:00-07:00\",\"remindBeforeMinutes\":\"0\",\"language\":\"auto\"}\n"
    )
  }

  @Test(arguments: [
    (["settings", "set", "mealGapHours", "forever"], 65, "from 0.5 to 24"),
    (["settings", "set", "dayStartsAt", "4"], 65, "such as '04:00'"),
    (["settings", "get", "colour"], 65, "Unknown setting 'colour'"),
    (["settings", "set", "name"], 64, "Missing expected argument '<value>'"),
  ])
  func badSettingsAreRefused(arguments: [String], code: Int32, fragment: String) {
    expectFailure(fixture, arguments, code: code, saying: fragment)
  }
}

@Suite struct HelpAndVersionTests {
  let fixture = CLIFixture()

  @Test func rootHelpListsEveryCommandWithItsAbstract() {
    let help = fixture.run("--help").stdout
    #expect(help.hasPrefix("OVERVIEW: Log meals and activities from the command line.\n"))
    for line in [
      "  add                     Add an entry to the log.",
      "  list                    List entries, oldest first.",
      "  today                   List today's entries (as 'lifelog list today').",
      "  edit                    Change an entry.",
      "  delete                  Delete entries (they can be restored).",
      "  restore                 Restore deleted entries.",
      "  activity                Add, list, rename, merge and archive activities.",
      "  settings                Show or change settings.",
      "  help                    Show help for a command.",
      "  See 'lifelog help <subcommand>' for detailed help.",
    ] {
      #expect(help.contains(line + "\n"), "missing: \(line)")
    }
    #expect(fixture.run().stdout == help)
    #expect(fixture.run("help").stdout == help)
  }

  @Test func commandHelpShowsUsageArgumentsOptionsWithDefaultsAndExamples() {
    #expect(
      fixture.run("settings", "set", "--help").stdout == """
        OVERVIEW: Change one setting.

        USAGE: lifelog settings set <key> <value>

        ARGUMENTS:
          <key>                   The setting to change.
          <value>                 Its new value.

        OPTIONS:
          --db <path>             The log to use (or LIFELOG_DB). (default:
                                  $XDG_DATA_HOME/lifelog/lifelog.db)
          -h, --help              Show help information.

        EXAMPLES:
          lifelog settings set mealGapHours 2.5
          lifelog settings set dayStartsAt 05:00

        """)
  }

  @Test func everyCommandHasHelpWithUsageAndExamplesAndTouchesNoDatabase() {
    let commands: [[String]] = [
      ["add"], ["list"], ["edit"], ["delete"], ["restore"], ["activity", "add"],
      ["activity", "list"],
      ["activity", "edit"], ["activity", "rename"], ["activity", "archive"],
      ["activity", "unarchive"],
      ["settings", "get"], ["settings", "set"], ["help"],
    ]
    for command in commands {
      let viaFlag = fixture.cli.run(command + ["--help"])
      #expect(viaFlag.exitCode == 0)
      #expect(
        viaFlag.stdout.contains("USAGE: lifelog \(command.joined(separator: " "))"), "\(command)")
      #expect(viaFlag.stdout.contains("OPTIONS:\n"), "\(command)")
      #expect(viaFlag.stdout.contains("EXAMPLES:\n  lifelog "), "\(command)")
      #expect(fixture.cli.run(["help"] + command).stdout == viaFlag.stdout, "\(command)")
      #expect(fixture.cli.run(command + ["-h"]).stdout == viaFlag.stdout, "\(command)")
    }
    #expect(!FileManagerShim.exists(fixture.folder.file("lifelog.db")))
  }

  @Test func versionPrintsTheVersion() {
    #expect(fixture.run("--version").stdout == "lifelog \(LifelogCommand.version)\n")
  }

  @Test func anUnknownCommandSuggestsTheNearest() {
    let result = fixture.run("lsit")
    #expect(result.exitCode == 64)
    #expect(
      result.stderr.hasPrefix(
        "Error: Unknown command 'lsit'; did you mean 'list'?\nUsage: lifelog <subcommand>\n"))
    #expect(fixture.run("help", "nothing").exitCode == 64)
  }

  @Test func aLogFromANewerLifelogIsAConfigurationError() throws {
    do {
      let store = try LogStore(path: fixture.folder.file("lifelog.db"))
      try store.database.execute(
        sql: "INSERT INTO lifelog_migrations (identifier) VALUES ('v99-future'); "
          + "PRAGMA user_version = 99")
    }
    let result = fixture.run("list")
    #expect(result.exitCode == 78)
    #expect(result.stderr.contains("written by a newer lifelog"))
    #expect(result.stderr.contains("upgrade lifelog"))
  }
}

enum FileManagerShim {
  static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}
