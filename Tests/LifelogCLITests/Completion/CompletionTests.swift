import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

/// What Tab offers, asked the way the completion scripts ask: `lifelog __complete -- <words>`,
/// the last word being the one typed so far.
@Suite struct CompletionTests {
  let fixture = CLIFixture()

  /// The candidates for the last of `words`, one per line as printed.
  func candidates(_ words: String..., sourceLocation: SourceLocation = #_sourceLocation) -> [String]
  {
    let result = fixture.cli.run(["__complete", "--"] + words)
    #expect(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
    return result.stdout.split(separator: "\n").map(String.init)
  }

  @Test func commandsAndSubcommandsComeFromTheConfigurationsWithoutTheHiddenOnes() {
    let all = candidates("")
    #expect(all.starts(with: ["add", "list", "today", "edit", "delete", "restore", "activity"]))
    #expect(all.contains("shell") && all.contains("completion") && all.contains("help"))
    #expect(!all.contains { $0.hasPrefix("__") })
    #expect(candidates("a") == ["add", "activity", "again"])
    #expect(
      candidates("activity", "") == [
        "add", "list", "edit", "rename", "merge", "archive", "unarchive",
      ])
    #expect(candidates("report", "m") == ["meals"])
    #expect(candidates("help", "activity", "r") == ["rename"])
    #expect(candidates("bogus", "") == [])
  }

  @Test func optionsAndTheirValuesFollowTheCommandReached() {
    #expect(candidates("add", "snack", "--d") == ["--duration", "--db"])
    #expect(candidates("--") == ["--version", "--verbose", "--db", "--help"])
    #expect(candidates("list", "--format", "") == ["table", "json", "csv"])
    #expect(candidates("report", "--format", "h") == ["html"])
    #expect(candidates("report", "activity", "--by", "") == ["day", "week", "month"])
    #expect(candidates("add", "tea", "--kind", "m") == ["meal", "medication"])
    #expect(candidates("report", "--format=c") == ["--format=csv"])
    #expect(
      candidates("settings", "get", "") == [
        "mealGapHours", "mealGapMinHours", "dayStartsAt", "weekStartsOn", "name",
        "remindQuietHours", "remindBeforeMinutes", "language",
      ])
    #expect(candidates("completion", "") == ["bash", "zsh", "fish"])
    // A value that is a file is left to the shell.
    #expect(candidates("report", "--output", "") == [":files"])
    // After the value, options again; after `--`, no options.
    #expect(candidates("add", "snack", "--at", "8am", "--q") == ["--qty"])
    #expect(candidates("add", "snack", "--", "--q") == [])
  }

  @Test func activityNamesComeFromTheLogAndArchivedOnesAreLeftOut() {
    fixture.run("activity", "add", "brunch", "--kind", "meal")
    fixture.run("activity", "archive", "dinner")
    #expect(candidates("add", "br") == ["breakfast", "brunch"])
    #expect(candidates("add", "d") == [])
    #expect(candidates("list", "--activity", "w") == ["walk", "workout"])
    #expect(candidates("activity", "rename", "l") == ["lunch"])
    // The note after the activity is free text.
    #expect(candidates("add", "snack", "a") == [])
  }

  @Test func entryIDsAreTheRecentOnesNewestFirstAndRestoreOffersDeletedOnes() throws {
    let first = try fixture.addReturningID("snack", "--at", "9:00")
    let second = try fixture.addReturningID("lunch", "--at", "11:00")
    let gone = try fixture.addReturningID("walk", "--at", "10:00")
    fixture.run("delete", gone)
    #expect(candidates("edit", "") == [String(second.prefix(8)), String(first.prefix(8))])
    #expect(candidates("delete", String(first.prefix(1))).contains(String(first.prefix(8))))
    #expect(candidates("restore", "") == [String(gone.prefix(8))])
  }

  /// An id from sync made of control characters is never offered: it would act on the terminal.
  @Test func anEntryIdOfControlCharactersIsNotOffered() throws {
    let plain = try fixture.addReturningID("snack", "--at", "9:00")
    let store = try LogStore(path: fixture.cli.databasePath)
    try store.add(
      NewEntry(
        id: "\u{1B}[2J\nx", activityID: ActivityName.derivedID(for: "snack"),
        time: LoggedTime(instant: LogStore.systemMilliseconds() / 1000, offsetMinutes: 0)))
    #expect(candidates("edit", "") == [String(plain.prefix(8))])
  }

  @Test func tabNeverCreatesALogAndReadsTheOneNamedByDb() {
    let other = fixture.folder.file("other.db")
    #expect(candidates("--db", other, "add", "b") == [])
    #expect(!FileManager.default.fileExists(atPath: other))
    #expect(!FileManager.default.fileExists(atPath: fixture.cli.databasePath))
    fixture.run("activity", "add", "boules", "--kind", "exercise")
    #expect(candidates("--db", fixture.cli.databasePath, "add", "bo") == ["boules"])
  }

  @Test func quotedWordsAreReadAsTheShellWouldReadThem() {
    fixture.run("activity", "add", "morning walk", "--kind", "exercise")
    #expect(candidates("add", "\"morn") == ["morning walk"])
    #expect(candidates("list", "'--format'", "j") == ["json"])
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func completionPrintsAScriptThatAsksTheBinary(shell: String) {
    let result = fixture.cli.run(["completion", shell])
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout.contains("__complete --"))
    #expect(result.stdout.contains("lifelog completion \(shell)"))
  }

  @Test func anUnknownShellIsAUsageError() {
    expectFailure(
      fixture, ["completion", "tcsh"], code: 64,
      saying: "Unknown shell 'tcsh'; use bash, zsh or fish")
  }

  @Test func theHiddenCommandsAreLeftOutOfHelpButRun() {
    let help = fixture.run("--help").stdout
    #expect(help.contains("  shell  "))
    #expect(help.contains("  completion  "))
    #expect(!help.contains("__"))
    #expect(fixture.run("__manpage").stdout.hasPrefix(".TH LIFELOG 1"))
  }
}
