import Foundation
import LifelogTestSupport
import Testing

/// `lifelog check` as help, Tab and the shell present it, in process.
@Suite struct CheckHelpTests {
  let fixture = CLIFixture()

  @Test func checkIsListedInHelpAndItsOptionsAndRemotesCompleteWithTab() {
    #expect(
      fixture.run("--help").stdout.contains(
        "  check                   Look for damage in the log and on a remote.\n"))
    let help = fixture.run("check", "--help")
    #expect(help.exitCode == 0, "\(help)")
    #expect(
      help.stdout.contains(
        "USAGE: lifelog check [--remote <name>] [--timeout <seconds>] [--format <format>]"))
    #expect(
      help.stdout.contains("EXAMPLES:\n  lifelog check\n  lifelog check --remote usb\n"), "\(help)")

    #expect(
      fixture.run("remote", "add", "usb", fixture.folder.file("usb"), "--no-encrypt").exitCode == 0)
    let complete = { (words: [String]) in fixture.cli.run(["__complete", "--"] + words).stdout }
    #expect(complete(["ch"]) == "check\n")
    #expect(complete(["check", "--"]) == "--remote\n--timeout\n--format\n--db\n--help\n")
    #expect(complete(["check", "--remote", ""]) == "usb\n")
    #expect(complete(["check", "--format", ""]) == "text\njson\n")
  }

  @Test func aCleanLogChecksCleanInProcessAndAnUnknownFormatIsAUsageError() {
    _ = fixture.run("add", "breakfast", "oats", "--at", "08:00")
    let result = fixture.run("check")
    #expect(result.exitCode == 0, "\(result)")
    #expect(
      result.stdout.hasPrefix("No damage found: checked 1 entry, 8 activities, 0 settings"),
      "\(result)")
    #expect(fixture.run("check", "--format", "yaml").exitCode == 64)
  }

  @Test func theSummaryCountsOneOfEachInTheSingular() {
    _ = fixture.run("add", "breakfast", "oats", "--at", "08:00")
    #expect(
      fixture.run("remote", "add", "usb", fixture.folder.file("usb"), "--no-encrypt").exitCode == 0)
    #expect(fixture.run("sync").exitCode == 0)
    let result = fixture.run("check", "--remote", "usb")
    #expect(result.exitCode == 0, "\(result)")
    #expect(
      result.stdout
        == "No damage found: checked 1 entry, 8 activities, 0 settings, 1 outbox batch, 1 remote;"
        + " 1 batch and 0 snapshots on 'usb'\n", "\(result)")
  }

  @Test(arguments: ["sync", "check"])
  func aTimeoutPastADayIsRefusedBeforeAnyRemoteIsRead(command: String) {
    // 9.3e15 s once overflowed the deadline's milliseconds (a trap) when the sync began.
    for value in ["9300000000000000", "86401", "0", "-5", "1e3"] {
      expectFailure(
        fixture, [command, "--timeout", value], code: 65,
        saying:
          "--timeout must be a whole number of seconds from 1 to 86400 (a day), not '\(value)'")
    }
  }
}
