@preconcurrency import Glibc
import LifelogCore

/// The five figures of the performance issue, measured against one release build of `lifelog`.
///
/// Command latencies are whole-process wall times (spawn to exit) of the real binary; the insert
/// rate is measured in this process through ``LogStore``, the API the 100,000-entry logs are
/// built with.
struct BenchmarkSuite {
  static let entryCount = 100_000
  static let warmupRuns = 3
  static let latencyRuns = 50
  static let jsonRuns = 5
  static let insertAttempts = 3

  /// The `lifelog` binary under test.
  let lifelog: String
  /// A private folder for the logs.
  let folder: String
  /// Which figures to measure.
  var part: Part = .all

  enum Part: String {
    case all
    /// The local log: add, list, insert rate.
    case log
    /// Sync through a folder remote.
    case sync
    /// Sync over HTTP through a `lifelog serve` the benchmark starts, and the server under load.
    case http
    /// Sync through a WebDAV server (Apache mod_dav) the benchmark starts.
    case webdav
    /// `lifelog report` over a year and over 100,000 entries.
    case report
    /// The first sync of 100,000 entries through an encrypted folder remote against a plain one,
    /// and joining an encrypted remote.
    case crypto
    /// `lifelog import` and `lifelog export` of 1,000,000 rows.
    case exchange
    /// `lifelog import --from`: 100,000 timewarrior intervals and a 1 GB Apple Health export.
    case imports
    /// `lifelog import FILE.xlsx --map …` of 100,000 rows (also run by `imports`).
    case sheet
    /// Tab completion (`lifelog __complete`) and a script run through `lifelog shell`.
    case shell
    /// The server's stores under load: SQLite, PostgreSQL with one and with two servers.
    case postgres
    /// The server's CPU time per push, no-op pull and page of changes (SQLite).
    case serverCPU = "server-cpu"
    /// `lifelog due --short` against timewarrior's `timew summary` on 100,000 entries.
    case rhythm
    /// lifelog's add, list, `due --short` and `report activity` against timewarrior and
    /// taskwarrior on the same 100,000 entries, paired run by run.
    case peers
    /// lifelog's add, list, `due --short` and `show last` against the floor (`scripts/floor`),
    /// paired run by run on a 100,000-entry log.
    case floor
    /// The first open of a 100,000-entry log written by lifelog 0.3.0 (schema v3): every later
    /// migration, in place.
    case migration
    /// `lifelog export --format xlsx` of 100,000 entries.
    case spreadsheet
  }

  /// Measures every figure of the chosen part (all of them for `.all`), handing each to `report`
  /// as soon as it is known.
  func run(report: (Figure) -> Void) throws {
    // Timed commands fsync; flush writes made before the run (such as the build) first.
    sync()
    switch part {
    case .all:
      try runSync(report: report)
      try runHTTP(report: report)
      try runServerCPU(report: report)
      try runDAV(report: report)
      try runPostgres(report: report)
      try runLog(report: report)
      try runReports(report: report)
      try runCrypto(report: report)
      try runExchange(report: report)
      try runImports(report: report)
      try runShell(report: report)
      try runRhythm(report: report)
      try runPeers(report: report)
      try runFloor(report: report)
      try runMigration(report: report)
      try runSpreadsheet(report: report)
    case .log: try runLog(report: report)
    case .sync: try runSync(report: report)
    case .http: try runHTTP(report: report)
    case .webdav: try runDAV(report: report)
    case .report: try runReports(report: report)
    case .crypto: try runCrypto(report: report)
    case .exchange: try runExchange(report: report)
    case .imports: try runImports(report: report)
    case .sheet: try runSheetImport(report: report)
    case .shell: try runShell(report: report)
    case .postgres: try runPostgres(report: report)
    case .rhythm: try runRhythm(report: report)
    case .serverCPU: try runServerCPU(report: report)
    case .peers: try runPeers(report: report)
    case .floor: try runFloor(report: report)
    case .migration: try runMigration(report: report)
    case .spreadsheet: try runSpreadsheet(report: report)
    }
  }

  /// The local log: `add` on an empty and a full log, `list`, the JSON of 100,000 entries, and the
  /// store's insert rate.
  func runLog(report: (Figure) -> Void) throws {
    report(try addToEmptyLog())
    Log.info("building \(Self.entryCount) sample entries")
    let entries = SampleLog.entries(count: Self.entryCount, endingAt: BenchmarkSuite.now() - 60)
    let addPath = folder + "/add-100k.db"
    let listPath = folder + "/list-100k.db"
    try buildLog(at: addPath, with: entries)
    try buildLog(at: listPath, with: entries)
    sync()
    report(try addToFullLog(at: addPath))
    report(try listLast20(at: listPath))
    report(try listAllAsJSON(at: listPath))
    report(try insertRate(of: entries))
  }

  // MARK: - Figures

  /// `add_empty_ms`: `lifelog add snack apple` on a new log (the first warm-up run creates it).
  func addToEmptyLog() throws -> Figure {
    let command = lifelogCommand(["add", "snack", "apple"], database: folder + "/empty.db")
    let samples = try latency("add_empty_ms", of: command)
    return Figure(
      name: "add_empty_ms", value: samples.median * 1e3, unit: "ms", goal: .atMost(5), decimals: 2)
  }

  /// `add_100k_ms`: the same on a log of 100,000 entries.
  func addToFullLog(at path: String) throws -> Figure {
    let command = lifelogCommand(["add", "snack", "apple"], database: path)
    let samples = try latency("add_100k_ms", of: command)
    return Figure(
      name: "add_100k_ms", value: samples.median * 1e3, unit: "ms", goal: .atMost(5), decimals: 2)
  }

  /// `list_limit20_100k_ms`: `lifelog list --limit 20` on a log of 100,000 entries.
  func listLast20(at path: String) throws -> Figure {
    let command = lifelogCommand(["list", "--limit", "20"], database: path)
    let samples = try latency("list_limit20_100k_ms", of: command)
    return Figure(
      name: "list_limit20_100k_ms", value: samples.median * 1e3, unit: "ms", goal: .atMost(5),
      decimals: 2)
  }

  /// `list_json_100k_s`: every entry of a 100,000-entry log as JSON, after checking once that
  /// the output really holds them all.
  func listAllAsJSON(at path: String) throws -> Figure {
    let command = lifelogCommand(
      ["list", "--format", "json", "--from", "2000-01-01"], database: path)
    let output = try command.capturedOutput()
    let objects = BenchmarkSuite.countLines(in: output, startingWith: Array("{\"id\"".utf8))
    guard objects == Self.entryCount else {
      throw BenchmarkError(
        "'\(command.commandLine)' printed \(objects) entry objects, not \(Self.entryCount)")
    }
    Log.info("list_json_100k_s: output holds \(objects) entries (\(output.count) bytes)")
    let samples = try latency("list_json_100k_s", of: command, warmups: 0, runs: Self.jsonRuns)
    return Figure(
      name: "list_json_100k_s", value: samples.median, unit: "s", goal: .atMost(0.5), decimals: 3)
  }

  /// `store_insert_rows_per_s`: `LogStore.add(contentsOf:)` with 100,000 prebuilt entries into a
  /// new log, best of three.
  ///
  /// Only the call is timed (opening the store is not).
  func insertRate(of entries: [NewEntry]) throws -> Figure {
    var best = 0.0
    for attempt in 1...Self.insertAttempts {
      let path = folder + "/insert-\(attempt).db"
      let cpuBefore = CPUTime.ofThisProcess()
      let seconds = try insertionTime(of: entries, at: path)
      let cpu = CPUTime.ofThisProcess() - cpuBefore
      let rate = Double(entries.count) / seconds
      // The CPU time moves far less than the wall time with other work on the machine.
      Log.info(
        "store_insert_rows_per_s: attempt \(attempt): \(Int(rate)) rows/s (\(ms(seconds)), "
          + "CPU \(ms(cpu)): \(Int(Double(entries.count) / cpu)) rows per CPU second)")
      best = max(best, rate)
      removeLog(at: path)
    }
    return Figure(
      name: "store_insert_rows_per_s", value: best, unit: "rows/s", goal: .atLeast(500_000),
      decimals: 0)
  }

  // MARK: - Helpers

  func lifelogCommand(
    _ arguments: [String], database: String, environment: [String: String] = [:]
  ) -> ChildCommand {
    ChildCommand(
      executable: lifelog, arguments: arguments,
      environment: [
        "LIFELOG_DB": database, "TZ": "UTC", "HOME": folder, "PATH": "/usr/bin:/bin",
      ].merging(environment) { $1 })
  }

  /// Runs `command` `warmups` times untimed, then `runs` times timed.
  func latency(
    _ name: String, of command: ChildCommand, warmups: Int = warmupRuns, runs: Int = latencyRuns
  ) throws -> Samples {
    Log.info("\(name): \(command.commandLine) (\(warmups) warm-up + \(runs) runs)")
    for _ in 0..<warmups { _ = try command.timedRun() }
    var times: [Double] = []
    times.reserveCapacity(runs)
    for _ in 0..<runs { times.append(try command.timedRun()) }
    let samples = Samples(times)
    Log.info(
      "\(name): median \(ms(samples.median)), min \(ms(samples.minimum)), "
        + "p90 \(ms(samples.percentile(0.9))), max \(ms(samples.maximum))")
    return samples
  }

  /// Writes `entries` into a new log at `path` through ``LogStore``, and checks the count.
  func buildLog(at path: String, with entries: [NewEntry]) throws {
    let seconds = try insertionTime(of: entries, at: path)
    let count = try LogStore(path: path).entryCount()
    guard count == entries.count else {
      throw BenchmarkError("'\(path)' holds \(count) entries after inserting \(entries.count)")
    }
    Log.info("built \(path) with \(count) entries in \(ms(seconds))")
  }

  /// Opens a new log at `path` and times one `add(contentsOf:)`; the store is closed on return.
  private func insertionTime(of entries: [NewEntry], at path: String) throws -> Double {
    guard access(path, F_OK) != 0 else { throw BenchmarkError("'\(path)' already exists") }
    let store = try LogStore(path: path)
    return try MonotonicClock.measure { try store.add(contentsOf: entries) }
  }

  /// Removes the log at `path` with its WAL and shared-memory files.
  func removeLog(at path: String) {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
  }

  func ms(_ seconds: Double) -> String {
    Figure.fixed(seconds * 1e3, 2) + " ms"
  }

  static func countLines(in bytes: [UInt8], startingWith prefix: [UInt8]) -> Int {
    var count = 0
    var lineStart = 0
    while lineStart < bytes.count {
      let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      if bytes[lineStart..<lineEnd].starts(with: prefix) { count += 1 }
      lineStart = lineEnd + 1
    }
    return count
  }

  /// The current Unix time in seconds.
  static func now() -> Int64 { SystemClock.unixSeconds() }
}
