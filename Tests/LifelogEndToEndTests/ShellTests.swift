import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog shell` run for real: from a pipe, as scripts use it, and at a terminal (a tmux
/// pseudo-terminal), as people use it.
@Suite struct ShellTests {
  let folder = TemporaryDirectory()
  var environment: [String: String] {
    [
      "LIFELOG_DB": folder.file("lifelog.db"), "TZ": "Europe/Warsaw",
      "LIFELOG_NOW": "2026-12-02T12:00:00+01:00", "XDG_STATE_HOME": folder.file("state"),
      "HOME": folder.file("home"), "TERM": "screen", "PATH": "/usr/bin:/bin",
    ]
  }

  // MARK: - Piped

  @Test func pipedLinesRunInOrderAndAFailedLineDoesNotStopTheRest() throws {
    let script = """
      # breakfast and a mistake
      add breakfast porridge --at 7:30
      add brekfast toast

      lifelog add snack 'an apple' --at 10:00
      add tea "unclosed
      list --format csv --bogus
      list --format csv
      """
    let result = try LifelogProcess.run(["shell"], environment: environment, input: script)
    #expect(result.exitCode == 64, "the last failing line was a usage error: \(result)")
    #expect(!result.stdout.contains("lifelog>"), "no prompt when input is not a terminal")
    let lines = result.stdout.split(separator: "\n")
    #expect(
      lines.first?.hasPrefix("Added ") == true
        && lines.first?.hasSuffix(#"breakfast Wed 2026-12-02 07:30 "porridge""#) == true)
    #expect(result.stdout.contains(",snack,meal,,an apple,,,"))
    #expect(result.stderr.contains("Error: Unknown activity 'brekfast'; did you mean 'breakfast'?"))
    #expect(result.stderr.contains("Error: Unbalanced quote"))
    #expect(result.stderr.contains("Error: Unknown option '--bogus'"))
    #expect(
      result.stdout.components(separatedBy: ",2026-12-02T").count == 3, "two entries, listed once")
  }

  @Test func aScriptWithoutFailuresExitsZeroAndStopsAtExit() throws {
    let script = "\u{FEFF}add walk --duration 45m --at 9:00\r\nexit\r\nadd run\r\n"
    let result = try LifelogProcess.run(["shell"], environment: environment, input: script)
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stderr.isEmpty, "a byte-order mark and CRLF endings are read: \(result)")
    let list = try LifelogProcess.run(["list", "--format", "csv"], environment: environment)
    #expect(list.stdout.contains(",walk,exercise,2700,"))
    #expect(!list.stdout.contains(",run,"), "nothing after exit runs")
  }

  @Test func wordsAreQuotedAsInAPOSIXShell() throws {
    let script = #"""
      add snack "say \"hi\"" 'it''s' back\ slash --tag a --at 8:00
      add snack --at 9:00 -- -5 degrees --at
      """#
    let result = try LifelogProcess.run(["shell"], environment: environment, input: script)
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout.contains(#"08:00 "say "hi" its back slash""#), "\(result)")
    #expect(result.stdout.contains(#"09:00 "-5 degrees --at""#), "\(result)")
  }

  @Test func lifelogAloneWithoutATerminalPrintsHelp() throws {
    let result = try LifelogProcess.run([], environment: environment, input: "add snack\n")
    #expect(result.exitCode == 0)
    #expect(result.stdout.hasPrefix("OVERVIEW: Log meals and activities"))
  }

  @Test func readlineIsNotLinkedSoOtherCommandsNeverLoadIt() throws {
    let linked = try Subprocess.run("ldd", [LifelogProcess.binaryPath])
    #expect(linked.status == 0, "\(linked.stderr)")
    #expect(linked.stdout.contains("libc.so"))
    #expect(!linked.stdout.contains("readline"), "\(linked.stdout)")
  }

  // MARK: - At a terminal

  @Test func aPersonTypesCompletesWithTabSeesErrorsCancelsWithCtrlCAndLeavesWithCtrlD() throws {
    try #require(Subprocess.exists("tmux"), "tmux is needed (make test installs it)")
    // `lifelog` alone at a terminal starts the shell.
    let terminal = try TerminalSession(
      [LifelogProcess.binaryPath], environment: environment, folder: folder)
    try terminal.waitFor("lifelog> ")
    try terminal.complete("sta", expecting: "lifelog> status ")
    try terminal.press("Enter")
    try terminal.waitFor("Pending: ")
    try terminal.complete("ad", expecting: "lifelog> add ")
    try terminal.complete("brea", expecting: "lifelog> add breakfast ")
    try terminal.enter("--at 7:30 toast", expecting: #"breakfast Wed 2026-12-02 07:30 "toast""#)
    try terminal.enter("add brekfast", expecting: "Error: Unknown activity 'brekfast'")
    // Ctrl-C drops the line being typed and leaves the shell running.
    try terminal.type("add sn")
    try terminal.press("C-c")
    // As a person does, type the next line once the fresh prompt is shown: keys typed while
    // readline still handles the signal (its terminal put back for the handler) can be lost.
    try terminal.waitForLastLine("lifelog>")
    try terminal.enter("list --format csv", expecting: ",breakfast,meal,,toast,,,")
    try terminal.press("C-d")
    try terminal.waitForExit()
    let history = folder.file("state/lifelog/history")
    let attributes = try FileManager.default.attributesOfItem(atPath: history)
    #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600)
    let folderAttributes = try FileManager.default.attributesOfItem(
      atPath: folder.file("state/lifelog"))
    #expect((folderAttributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o700)
    #expect(try String(contentsOfFile: history, encoding: .utf8).hasSuffix("list --format csv\n"))
  }

  @Test func upArrowRecallsALineFromTheSessionBefore() throws {
    try #require(Subprocess.exists("tmux"), "tmux is needed (make test installs it)")
    let first = try TerminalSession(
      [LifelogProcess.binaryPath, "shell"], environment: environment, folder: folder)
    try first.waitFor("lifelog> ")
    try first.enter("status --format json", expecting: "\"pendingRows\"")
    try first.enter(" activity list", expecting: "breakfast")
    try first.type("exit")
    try first.press("Enter")
    try first.waitForExit()

    let second = try TerminalSession(
      [LifelogProcess.binaryPath, "shell"], environment: environment, folder: folder)
    try second.waitFor("lifelog> ")
    try second.press("Up")
    // A line typed with a leading space, and `exit`, stay out of the history.
    try second.waitFor("lifelog> status --format json")
    try second.press("Enter")
    try second.waitFor("\"pendingRows\"")
    try second.press("C-d")
    try second.waitForExit()
  }

  // MARK: - The history file

  /// Writes the history file as an earlier session (or anyone) might have left it.
  private func writeHistory(_ bytes: [UInt8]) throws -> String {
    let history = folder.file("state/lifelog/history")
    try FileManager.default.createDirectory(
      atPath: folder.file("state/lifelog"), withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: history))
    return history
  }

  /// The history file is outside input: a binary line, one with a control character and one
  /// longer than 4 KiB are skipped, neither recalled nor kept; the text lines round-trip.
  @Test func theHistoryRecallsItsTextLinesAndDropsWhatIsNotText() throws {
    try #require(Subprocess.exists("tmux"), "tmux is needed (make test installs it)")
    var bytes = Array("add snack 'jabłko'\n".utf8) + [0x00, 0xFF, 0xFE, 0x0A]
    bytes += Array("list --limit 1\nstatus \u{1B}[31m\n".utf8)
    bytes += Array(String(repeating: "x", count: 5_000).utf8) + [0x0A]
    let history = try writeHistory(bytes)
    let terminal = try TerminalSession(
      [LifelogProcess.binaryPath, "shell"], environment: environment, folder: folder)
    try terminal.waitFor("lifelog> ")
    try terminal.press("Up")
    try terminal.waitFor("lifelog> list --limit 1")
    try terminal.press("Enter")
    try terminal.waitForLastLine("lifelog>")
    try terminal.press("C-d")
    try terminal.waitForExit()
    #expect(
      try String(contentsOfFile: history, encoding: .utf8)
        == "add snack 'jabłko'\nlist --limit 1\nlist --limit 1\n")
  }

  /// A history of 2 MiB and 1,500 lines (a line of 2 MiB first, one of 5,000 bytes near the
  /// end): only its last 1 MiB is read, and leaving cuts it to its last 1,000 text lines.
  @Test func anOverlongHistoryIsCutToItsLastThousandTextLines() throws {
    try #require(Subprocess.exists("tmux"), "tmux is needed (make test installs it)")
    var bytes = [UInt8](repeating: UInt8(ascii: "y"), count: 2 << 20) + [0x0A]
    for number in 1...1_500 {
      bytes += Array("list --limit \(number)\n".utf8)
      if number == 1_450 { bytes += Array(String(repeating: "z", count: 5_000).utf8) + [0x0A] }
    }
    let history = try writeHistory(bytes)
    let terminal = try TerminalSession(
      [LifelogProcess.binaryPath, "shell"], environment: environment, folder: folder)
    try terminal.waitFor("lifelog> ")
    try terminal.press("Up")
    try terminal.waitFor("lifelog> list --limit 1500")
    try terminal.press("C-u", "C-d")
    try terminal.waitForExit()
    let kept = try String(contentsOfFile: history, encoding: .utf8)
    #expect(kept == (501...1_500).map { "list --limit \($0)\n" }.joined())
  }

  /// Shells at once: the first one's trim on leaving replaces the file; the second one, which
  /// opened the old file, still appends to the file at the path, and its own trim keeps what a
  /// third shell added meanwhile instead of writing its old copy back over it.
  @Test func shellsAtOnceKeepTheLinesOfEach() throws {
    try #require(Subprocess.exists("tmux"), "tmux is needed (make test installs it)")
    let history = try writeHistory(Array((1...1_005).map { "list --limit \($0)\n" }.joined().utf8))
    func keptLines() throws -> [Substring] {
      try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n")
    }
    let shell = {
      try TerminalSession(
        [LifelogProcess.binaryPath, "shell"], environment: self.environment, folder: self.folder)
    }
    let first = try shell()
    let second = try shell()
    try first.waitFor("lifelog> ")
    try second.waitFor("lifelog> ")
    try first.enter("list --limit 3000", expecting: "lifelog> list --limit 3000")
    try first.waitForLastLine("lifelog>")
    try first.press("C-d")
    try first.waitForExit()
    let third = try shell()
    try third.waitFor("lifelog> ")
    try third.enter("status --format json", expecting: "\"pendingRows\"")
    try third.press("C-d")
    try third.waitForExit()
    try second.enter("list --limit 2000", expecting: "lifelog> list --limit 2000")
    try second.waitForLastLine("lifelog>")
    #expect(try keptLines().last == "list --limit 2000")
    try second.press("C-d")
    try second.waitForExit()
    let kept = try keptLines()
    #expect(kept.count == 1_000)
    let typed: [Substring] = ["list --limit 3000", "status --format json", "list --limit 2000"]
    #expect(kept.suffix(3) == typed[...], "\(kept.suffix(4))")
  }
}
