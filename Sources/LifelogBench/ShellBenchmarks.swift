@preconcurrency import Glibc
import LifelogCore

/// The shell figures: how long Tab takes in bash, zsh or fish (each press runs
/// `lifelog __complete`, which reads activity names or recent ids from the log), and how fast a
/// script of commands runs through `lifelog shell` compared with a process per command.
extension BenchmarkSuite {
  static let scriptLines = 1_000
  static let scriptRuns = 3

  func runShell(report: (Figure) -> Void) throws {
    Log.info("shell: building \(Self.entryCount) sample entries")
    let bigPath = folder + "/shell-100k.db"
    try buildLog(
      at: bigPath,
      with: SampleLog.entries(count: Self.entryCount, endingAt: BenchmarkSuite.now() - 60))
    sync()
    for (name, words) in [
      ("complete_activity_100k_ms", ["add", "s"]), ("complete_id_100k_ms", ["edit", ""]),
    ] {
      let command = lifelogCommand(["__complete", "--"] + words, database: bigPath)
      let candidates = try command.capturedOutput().split(separator: UInt8(ascii: "\n"))
      guard !candidates.isEmpty else {
        throw BenchmarkError("'\(command.commandLine)' offered nothing")
      }
      let samples = try latency(name, of: command)
      report(
        Figure(name: name, value: samples.median * 1e3, unit: "ms", goal: .atMost(10), decimals: 2))
    }
    report(try scriptRate())
  }

  /// `shell_script_lines_per_s`: a script of 1,000 `add` lines piped into `lifelog shell`, best of
  /// three, each into a new log.
  func scriptRate() throws -> Figure {
    let script = folder + "/script.txt"
    var text = ""
    for line in 0..<Self.scriptLines {
      text += "add snack \"apple \(line)\" --at '-\(line + 1)m' --tag bench\n"
    }
    do {
      try LocalFile.write(Array(text.utf8), to: script, mode: 0o644)
    } catch {
      throw BenchmarkError("cannot write '\(script)': \(error.reason)")
    }
    var best = 0.0
    for run in 1...Self.scriptRuns {
      let database = folder + "/shell-script-\(run).db"
      let command = ChildCommand(
        executable: lifelog, arguments: ["shell"],
        environment: [
          "LIFELOG_DB": database, "TZ": "UTC", "HOME": folder, "PATH": "/usr/bin:/bin",
        ],
        input: script)
      let seconds = try command.timedRun()
      let count = try LogStore(path: database).entryCount()
      guard count == Self.scriptLines else {
        throw BenchmarkError(
          "'\(command.commandLine) < \(script)' logged \(count) entries, not \(Self.scriptLines)")
      }
      let rate = Double(Self.scriptLines) / seconds
      Log.info("shell_script_lines_per_s: run \(run): \(Int(rate)) lines/s (\(ms(seconds)))")
      best = max(best, rate)
    }
    return Figure(
      name: "shell_script_lines_per_s", value: best, unit: "lines/s", goal: .atLeast(400),
      decimals: 0)
  }
}
