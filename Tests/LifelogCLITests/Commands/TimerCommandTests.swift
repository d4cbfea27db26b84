import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog timer` against a fake `systemctl` on PATH that records its arguments, and with none;
/// the units it writes pass `systemd-analyze verify` where systemd is installed.
@Suite struct TimerCommandTests {
  let fixture = CLIFixture()
  var bin: String { fixture.folder.file("bin") }
  var log: String { fixture.folder.file("systemctl.log") }
  var units: String { fixture.folder.file("config/systemd/user") }

  /// The CLI with `systemctl` answering `status` to every call (or not on PATH at all).
  func cli(systemctl status: Int32?) throws -> InProcessCLI {
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    if let status {
      let script = bin + "/systemctl"
      try ExecutableScript.create(
        "#!/bin/sh\necho \"$@\" >> '\(log)'\nexit \(status)\n", at: script)
    }
    var cli = fixture.cli
    cli.environment = [
      "PATH": bin + (status == nil ? "" : ":/usr/bin:/bin"), "HOME": fixture.folder.path,
      "XDG_CONFIG_HOME": fixture.folder.file("config"),
    ]
    return cli
  }

  func calls() -> [String] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(
      String.init)
  }

  @Test func installWritesTheUnitsAndEnablesTheTimerRemoveUndoesIt() throws {
    let cli = try cli(systemctl: 0)
    let installed = cli.run(["timer", "install", "remind", "--every", "10m"])
    #expect(installed.exitCode == 0, "\(installed)")
    #expect(
      installed.stdout
        == "Installed lifelog-remind.timer: runs 'lifelog remind --notify' every 10m (units in \(units))\n"
    )
    #expect(
      calls() == [
        "--user show-environment", "--user daemon-reload",
        "--user enable --now lifelog-remind.timer",
      ])
    let service = try String(contentsOfFile: units + "/lifelog-remind.service", encoding: .utf8)
    #expect(
      service.contains("ExecStart=\"/")
        && service.contains("\" \"--db\" \"\(cli.databasePath)\" \"remind\" \"--notify\"\n"))
    let timer = try String(contentsOfFile: units + "/lifelog-remind.timer", encoding: .utf8)
    #expect(timer.contains("OnUnitActiveSec=10min\n") && timer.contains("WantedBy=timers.target\n"))
    #expect(cli.run(["timer", "install", "sync"]).exitCode == 0)
    #expect(
      cli.run(["timer", "list"]).stdout == """
        TIMER                 EVERY  RUNS
        lifelog-sync.timer    15m    lifelog sync --quiet
        lifelog-remind.timer  10m    lifelog remind --notify

        """)
    try expectVerified(units + "/lifelog-remind.timer", units + "/lifelog-remind.service")
    let removed = cli.run(["timer", "remove", "remind"])
    #expect(removed.stdout == "Removed lifelog-remind.timer\n", "\(removed)")
    #expect(
      calls().suffix(2) == ["--user disable --now lifelog-remind.timer", "--user daemon-reload"])
    #expect(!FileManager.default.fileExists(atPath: units + "/lifelog-remind.service"))
    #expect(cli.run(["timer", "remove"]).stdout == "Removed lifelog-sync.timer\n")
    #expect(cli.run(["timer"]).stdout.hasPrefix("No lifelog timers installed"))
  }

  @Test(arguments: [nil, 1] as [Int32?])
  func withoutAUserSessionItPrintsTheCrontabLineAndInstallsNothing(status: Int32?) throws {
    let cli = try cli(systemctl: status)
    let result = cli.run(["timer", "install", "remind", "--every", "30m"])
    #expect(result.exitCode == 0, "\(result)")
    let reason =
      status == nil ? "systemctl is not on PATH" : "'systemctl --user' cannot reach a user manager"
    #expect(
      result.stdout.hasPrefix(
        "No systemd user session here (\(reason)), so nothing was installed."), "\(result)")
    #expect(
      result.stdout.contains("\n*/30 * * * * '/")
        && result.stdout.hasSuffix("' '--db' '\(cli.databasePath)' 'remind'\n"))
    #expect(!FileManager.default.fileExists(atPath: units))
    #expect(calls() == (status == nil ? [] : ["--user show-environment"]))
    let hourly = cli.run(["timer", "install", "sync", "--every", "2h"]).stdout
    #expect(hourly.contains("\n0 */2 * * * '/"), "\(hourly)")
  }

  @Test func aFailingEnableIsUnavailable() throws {
    var cli = try cli(systemctl: 0)
    try ExecutableScript.create(
      "#!/bin/sh\ncase \"$2\" in show-environment|daemon-reload) exit 0;; esac\necho 'Unit not found.' >&2\nexit 5\n",
      at: bin + "/systemctl")
    cli.environment["PATH"] = bin + ":/usr/bin:/bin"
    let result = cli.run(["timer", "install", "remind"])
    #expect(result.exitCode == 69, "\(result)")
    #expect(result.stderr.contains("failed (status 5): Unit not found."), "\(result)")
  }

  @Test(arguments: [["7m"], ["90m"], ["5h"], ["30s"], ["soon"]])
  func anIntervalCronCannotSayIsRefused(every: [String]) throws {
    expectFailure(
      fixture, ["timer", "install", "remind", "--every"] + every, code: 65, saying: "--every")
  }

  @Test func anUnknownJobIsRefused() {
    expectFailure(
      fixture, ["timer", "install", "backup"], code: 65, saying: "Unknown job 'backup'")
  }

  /// `systemd-analyze verify` on the units, or a printed reason when systemd is not installed.
  func expectVerified(_ paths: String...) throws {
    guard
      let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      print(
        "TimerCommandTests: skipping 'systemd-analyze verify': systemd-analyze is not installed")
      return
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: analyze)
    process.arguments = ["verify"] + paths
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = errors
    try process.run()
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0 && output.isEmpty, "systemd-analyze verify: \(output)")
  }
}
