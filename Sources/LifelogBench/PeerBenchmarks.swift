@preconcurrency import Glibc
import LifelogCore

/// The peer figures: lifelog's `add`, `list --limit 20`, `due --short` and `report activity`
/// against timewarrior (`timew`) and taskwarrior (`task`) on the same 100,000 entries, in one run.
///
/// Every figure is paired: each lifelog run is followed (or, every other time, preceded) by the
/// peer's run, and the figure is the median of the per-pair ratios lifelog / peer, so load from
/// others on the machine hits both sides alike and cancels. The medians of each side are printed
/// too, for the table in docs/benchmarks.md.
///
/// The peers' data is written straight into their own file formats (timewarrior's monthly
/// `inc` lines, taskwarrior's FF4 `completed.data`), which takes well under a second, where
/// `task import` of 100,000 tasks takes several; each peer then counts what it sees before
/// anything is timed. Both run in private folders (`TIMEWARRIORDB`, `TASKRC`, `TASKDATA`).
extension BenchmarkSuite {
  /// The share of a peer's time lifelog's `add` and `list` may take: lifelog must be faster than
  /// the tools it is compared with (docs/benchmarks.md).
  static let peerShare = 0.8
  static let peerRuns = 40

  func runPeers(report: (Figure) -> Void) throws {
    let peers = try Peers(folder: folder)
    Log.info("peers: building \(Self.entryCount) sample entries")
    let end = BenchmarkSuite.now() - 3_600
    let entries = SampleLog.entries(count: Self.entryCount, endingAt: end)
    let path = folder + "/peers-100k.db"
    try buildLog(at: path, with: entries)
    try peers.load(entries)
    sync()

    // add: on an empty log and on 100,000 entries; timewarrior records a one-second interval
    // after the sample's last interval (its longest lasts 30 minutes), taskwarrior adds a
    // pending task.
    var slot = end + 1_860
    let timewAdd = { (peers: Peers, empty: Bool) -> ChildCommand in
      slot += 2
      return peers.timew(
        ["track", Self.timewStamp(slot), "-", Self.timewStamp(slot + 1), "snack"], empty: empty)
    }
    let emptyLog = folder + "/peers-empty.db"
    try paired(
      "add_empty_vs_timew_ratio",
      lifelog: { lifelogCommand(["add", "snack", "apple"], database: emptyLog) },
      peer: { timewAdd(peers, true) }, goal: Self.peerShare, report: report)
    try paired(
      "add_vs_timew_ratio", lifelog: { lifelogCommand(["add", "snack", "apple"], database: path) },
      peer: { timewAdd(peers, false) }, goal: Self.peerShare, report: report)
    try paired(
      "add_vs_task_ratio", lifelog: { lifelogCommand(["add", "snack", "apple"], database: path) },
      peer: { peers.task(["add", "project:snack", "apple"]) }, goal: Self.peerShare, report: report)

    // list: timewarrior has no `list`; `timew summary` of the last day with entries (a table of
    // about 140 intervals) is its nearest "what did I log". taskwarrior's is `completed` limited
    // to 20 rows.
    let lastDay = LocalDateTime(instant: entries.last?.time.instant ?? 0, offsetSeconds: 0).date
    let timewList = peers.timew(
      ["summary", "\(lastDay)", "-", "\(lastDay.adding(days: 1))"], empty: false)
    let listed = try timewList.capturedOutput()
    guard listed.count > 1_000 else {
      throw BenchmarkError(
        "'\(timewList.commandLine)' printed only: \(String(decoding: listed, as: UTF8.self))")
    }
    let list = lifelogCommand(["list", "--limit", "20"], database: path)
    try paired(
      "list20_vs_timew_ratio", lifelog: { list }, peer: { timewList }, goal: Self.peerShare,
      report: report)
    let taskList = peers.task(["limit:20", "completed"])
    try paired(
      "list20_vs_task_ratio", lifelog: { list }, peer: { taskList }, goal: Self.peerShare,
      report: report, runs: 10)
    let due = lifelogCommand(["due", "--short"], database: path)
    try paired(
      "due_short_vs_timew_list_ratio", lifelog: { due }, peer: { timewList },
      goal: Self.peerShare, report: report)

    // Totals per activity over everything: taskwarrior's `summary` (every project, with the
    // share completed) reads all 100,000 tasks, as `report activity` over the whole range does.
    let today = CivilDate(daysSinceEpoch: BenchmarkSuite.now() / 86_400)
    let from = today.adding(days: -Int(SampleLog.span / 86_400) - 2)
    let activity = lifelogCommand(
      ["report", "activity", "--from", "\(from)", "--to", "\(today)"], database: path)
    let summary = peers.task(["rc.summary.all.projects=yes", "summary"])
    try paired(
      "report_activity_vs_task_ratio", lifelog: { activity }, peer: { summary }, goal: 1,
      report: report, runs: 10)
  }

  /// Times `lifelog` and `peer` alternately and reports the median of the per-pair ratios.
  ///
  /// `runs` pairs follow three warm-up pairs; the figure is `name`. A closure makes each run's
  /// command, so a peer whose add must name a new time can.
  func paired(
    _ name: String, lifelog: () -> ChildCommand, peer: () -> ChildCommand, goal: Double,
    report: (Figure) -> Void, runs: Int = peerRuns
  ) throws {
    var ours: [Double] = []
    var theirs: [Double] = []
    var ratios: [Double] = []
    let first = (lifelog(), peer())
    Log.info("\(name): '\(first.0.commandLine)' against '\(first.1.commandLine)'")
    for index in 0..<(Self.warmupRuns + runs) {
      let (mine, other) = index == 0 ? first : (lifelog(), peer())
      // Every other pair runs the peer first, so neither side always follows the other.
      let (a, b): (Double, Double)
      if index.isMultiple(of: 2) {
        a = try mine.timedRun()
        b = try other.timedRun()
      } else {
        b = try other.timedRun()
        a = try mine.timedRun()
      }
      guard index >= Self.warmupRuns else { continue }
      ours.append(a)
      theirs.append(b)
      ratios.append(a / b)
    }
    let (mineMedian, peerMedian) = (Samples(ours).median, Samples(theirs).median)
    Log.info(
      "\(name): lifelog median \(ms(mineMedian)), peer median \(ms(peerMedian)), "
        + "paired ratio \(Figure.fixed(Samples(ratios).median, 2))")
    let base = String(name.dropLast("_ratio".count))
    report(
      Figure(
        name: base + "_lifelog_ms", value: mineMedian * 1e3, unit: "ms", goal: .atLeast(0),
        decimals: 2))
    report(
      Figure(
        name: base + "_peer_ms", value: peerMedian * 1e3, unit: "ms", goal: .atLeast(0),
        decimals: 2))
    report(
      Figure(
        name: name, value: Samples(ratios).median, unit: "x", goal: .atMost(goal), decimals: 3))
  }

  /// `20231001T103000Z`, timewarrior's own time format.
  static func timewStamp(_ instant: Int64) -> String {
    let time = LocalDateTime(instant: instant, offsetSeconds: 0)
    func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(time.date.year)\(pad(time.date.month))\(pad(time.date.day))T"
      + "\(pad(time.hour))\(pad(time.minute))\(pad(time.second))Z"
  }
}

/// The two peers, installed, each with a private data folder: timewarrior twice (an empty one
/// and one holding the sample) and taskwarrior once.
struct Peers {
  let timewPath: String
  let taskPath: String
  let folder: String

  init(folder: String) throws {
    func installed(_ name: String, package: String) throws -> String {
      let candidates = ["/usr/bin/" + name, "/usr/local/bin/" + name]
      guard let path = candidates.first(where: { access($0, X_OK) == 0 }) else {
        throw BenchmarkError(
          "\(package) is not installed (Debian package '\(package)'; 'make test-deps' installs it)")
      }
      return path
    }
    timewPath = try installed("timew", package: "timewarrior")
    taskPath = try installed("task", package: "taskwarrior")
    self.folder = folder
  }

  var timewFull: String { folder + "/peer-timew" }
  var timewEmpty: String { folder + "/peer-timew-empty" }
  var taskData: String { folder + "/peer-task" }
  var taskRC: String { folder + "/peer-taskrc" }

  /// Writes `entries` into both peers' folders and checks that each sees all of them.
  func load(_ entries: [NewEntry]) throws {
    try TimewarriorData.write(entries, to: timewFull)
    try TimewarriorData.write([], to: timewEmpty)
    try TaskwarriorData.write(entries, to: taskData, rc: taskRC)
    let counted = String(
      decoding: try task(["status:completed", "count"]).capturedOutput(), as: UTF8.self)
    guard counted.split(separator: "\n").first.map(String.init) == "\(entries.count)" else {
      throw BenchmarkError("taskwarrior counts '\(counted)' completed tasks, not \(entries.count)")
    }
    let tags = String(
      decoding: try timew(["tags"], empty: false).capturedOutput(), as: UTF8.self)
    guard tags.contains("snack") else {
      throw BenchmarkError("timewarrior sees no 'snack' tag: '\(tags)'")
    }
    Log.info("peers: timewarrior and taskwarrior hold \(entries.count) entries each")
  }

  func timew(_ arguments: [String], empty: Bool) -> ChildCommand {
    ChildCommand(
      executable: timewPath, arguments: arguments,
      environment: [
        "TIMEWARRIORDB": empty ? timewEmpty : timewFull, "TZ": "UTC", "HOME": folder,
        "PATH": "/usr/bin:/bin",
      ])
  }

  func task(_ arguments: [String]) -> ChildCommand {
    ChildCommand(
      executable: taskPath, arguments: arguments,
      environment: [
        "TASKRC": taskRC, "TASKDATA": taskData, "TZ": "UTC", "HOME": folder,
        "PATH": "/usr/bin:/bin",
      ])
  }
}

/// Writes entries as taskwarrior 2.x's `completed.data` (format FF4, one `[name:"value" ...]`
/// line per task: a completed task per entry, its project the activity) and a quiet `taskrc`.
enum TaskwarriorData {
  static func write(_ entries: [NewEntry], to folder: String, rc: String) throws {
    do {
      try LocalFile.createFolders(folder)
    } catch {
      throw BenchmarkError("cannot create '\(error.path)': \(error.reason)")
    }
    try save(
      "data.location=\(folder)\nconfirmation=off\nverbose=nothing\nhooks=off\n"
        + "news.version=2.6.0\ngc=on\n", to: rc)
    var text = ""
    text.reserveCapacity(entries.count * 200)
    for entry in entries {
      let start = entry.time.instant
      let end = start + Int64(entry.duration ?? 60)
      // FF4 escapes a double quote inside a value as `&dquot;`.
      let note = (entry.note ?? "snack").split(separator: "\"", omittingEmptySubsequences: false)
        .joined(separator: "&dquot;")
      text +=
        "[description:\"\(note)\" end:\"\(end)\" entry:\"\(start)\" modified:\"\(end)\" "
        + "project:\"snack\" status:\"completed\" uuid:\"\(entry.id)\"]\n"
    }
    try save(text, to: folder + "/completed.data")
    try save("", to: folder + "/pending.data")
  }

  private static func save(_ text: String, to path: String) throws {
    do {
      try LocalFile.write(Array(text.utf8), to: path, mode: 0o644)
    } catch {
      throw BenchmarkError("cannot write '\(path)': \(error.reason)")
    }
  }
}
