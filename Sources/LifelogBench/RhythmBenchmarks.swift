@preconcurrency import Glibc
import LifelogCore

/// The rhythm figures: `lifelog due --short`, which sits in a shell prompt, against
/// timewarrior's nearest listing command on the same 100,000 entries, measured in one run.
///
/// timewarrior has no `list`; `timew summary` (today's intervals as a table) is what a person
/// types for "what did I log", so it is the command paired with lifelog's `list` here. Its data
/// files are plain text (`~/.timewarrior/data/YYYY-MM.data`, one `inc` line per interval), so the
/// same sample log is written there line for line; `TIMEWARRIORDB` points it at the folder.
extension BenchmarkSuite {
  /// The share of timewarrior's time `due --short` may take: a prompt token must cost less than
  /// the peer's cheapest command (docs/benchmarks.md).
  static let dueShareOfTimewarrior = 0.8

  func runRhythm(report: (Figure) -> Void) throws {
    Log.info("rhythm: building \(Self.entryCount) sample entries")
    let entries = SampleLog.entries(count: Self.entryCount, endingAt: BenchmarkSuite.now() - 60)
    let path = folder + "/due-100k.db"
    try buildLog(at: path, with: entries)
    let timewarrior = folder + "/timewarrior"
    try TimewarriorData.write(entries, to: timewarrior)
    sync()
    let candidates = ["/usr/bin/timew", "/usr/local/bin/timew"]
    guard let timew = candidates.first(where: { path in access(path, X_OK) == 0 }) else {
      throw BenchmarkError(
        "timewarrior is not installed (Debian package 'timewarrior'; 'make test-deps' installs it)")
    }
    let due = lifelogCommand(["due", "--short"], database: path)
    let token = String(decoding: try due.capturedOutput(), as: UTF8.self)
    guard token.hasSuffix("\n"), token.split(separator: "\n").count == 1 else {
      throw BenchmarkError("'\(due.commandLine)' printed '\(token)', not one token")
    }
    // `timew summary` lists today (on this log, often no interval: the sample ends up to a day
    // before the run); the last day with entries is listed too, to show what a full day costs.
    let environment = [
      "TIMEWARRIORDB": timewarrior, "TZ": "UTC", "HOME": folder, "PATH": "/usr/bin:/bin",
    ]
    let summary = ChildCommand(executable: timew, arguments: ["summary"], environment: environment)
    let lastDay = LocalDateTime(instant: entries.last?.time.instant ?? 0, offsetSeconds: 0).date
    let daySummary = ChildCommand(
      executable: timew, arguments: ["summary", "\(lastDay)", "-", "\(lastDay.adding(days: 1))"],
      environment: environment)
    let listed = try daySummary.capturedOutput()
    guard listed.count > 1000 else {
      throw BenchmarkError(
        "'\(daySummary.commandLine)' printed only: \(String(decoding: listed, as: UTF8.self))")
    }
    // `list` on the same log: `due --short` must start and answer as fast as it does.
    let list = lifelogCommand(["list", "--limit", "20"], database: path)
    // Alternated, so all four see the same machine load.
    var listTimes: [Double] = []
    var dueTimes: [Double] = []
    var timewTimes: [Double] = []
    var dayTimes: [Double] = []
    for _ in 0..<Self.warmupRuns {
      _ = try due.timedRun()
      _ = try summary.timedRun()
      _ = try daySummary.timedRun()
      _ = try list.timedRun()
    }
    for _ in 0..<Self.latencyRuns {
      dueTimes.append(try due.timedRun())
      timewTimes.append(try summary.timedRun())
      dayTimes.append(try daySummary.timedRun())
      listTimes.append(try list.timedRun())
    }
    let listMedian = Samples(listTimes).median
    let dueMedian = Samples(dueTimes).median
    let timewMedian = Samples(timewTimes).median
    let dayMedian = Samples(dayTimes).median
    Log.info(
      "due_short_100k_ms: median \(ms(dueMedian)) ('\(token.dropLast())'); timew summary: \(ms(timewMedian)); "
        + "'\(daySummary.commandLine)' (\(listed.count) bytes): \(ms(dayMedian)); list --limit 20: \(ms(listMedian))"
    )
    report(
      Figure(
        name: "due_short_100k_ms", value: dueMedian * 1e3, unit: "ms", goal: .atMost(5), decimals: 2
      ))
    report(
      Figure(
        name: "timew_summary_100k_ms", value: timewMedian * 1e3, unit: "ms", goal: .atLeast(0),
        decimals: 2))
    report(
      Figure(
        name: "timew_summary_day_100k_ms", value: dayMedian * 1e3, unit: "ms", goal: .atLeast(0),
        decimals: 2))
    report(
      Figure(
        name: "due_short_vs_list_ratio", value: dueMedian / listMedian, unit: "x",
        goal: .atMost(1.1),
        decimals: 2))
    report(
      Figure(
        name: "due_short_vs_timew_ratio", value: dueMedian / timewMedian, unit: "x",
        goal: .atMost(Self.dueShareOfTimewarrior), decimals: 2))
  }
}

/// Writes entries as timewarrior's data files: `inc 20231001T103000Z - 20231001T110000Z # snack`.
enum TimewarriorData {
  static func write(_ entries: [NewEntry], to folder: String) throws {
    do {
      try LocalFile.createFolders(folder + "/data")
    } catch {
      throw BenchmarkError("cannot create '\(error.path)': \(error.reason)")
    }
    try save("", to: folder + "/timewarrior.cfg")
    var months: [String: String] = [:]
    for entry in entries {
      let start = LocalDateTime(instant: entry.time.instant, offsetSeconds: 0)
      let end = LocalDateTime(
        instant: entry.time.instant + Int64(entry.duration ?? 60), offsetSeconds: 0)
      let month = "\(start.date.year)-\(pad(start.date.month))"
      months[month, default: ""] += "inc \(stamp(start)) - \(stamp(end)) # snack\n"
    }
    for (month, text) in months { try save(text, to: "\(folder)/data/\(month).data") }
    try save("{\"snack\":{\"count\":\(entries.count)}}\n", to: folder + "/data/tags.data")
  }

  private static func stamp(_ time: LocalDateTime) -> String {
    "\(time.date.year)\(pad(time.date.month))\(pad(time.date.day))T\(pad(time.hour))\(pad(time.minute))\(pad(time.second))Z"
  }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  private static func save(_ text: String, to path: String) throws {
    do {
      try LocalFile.write(Array(text.utf8), to: path, mode: 0o644)
    } catch {
      throw BenchmarkError("cannot write '\(path)': \(error.reason)")
    }
  }
}
