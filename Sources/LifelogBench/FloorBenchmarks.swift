@preconcurrency import Glibc
import LifelogCore
import LifelogSQLite

/// The floor figures: lifelog's `add`, `list --limit 20`, `due --short` and `show last` against
/// the least a process can do for them on the same log through the same libsqlite3
/// (`scripts/floor/`: a C program that opens the log and commits one one-row transaction with
/// `synchronous = FULL`, and one that reads and prints the 20 latest live entries with their
/// activity names). Paired run by run as the peers are (``paired(_:lifelog:peer:goal:report:runs:)``),
/// on a 100,000-entry log made by `lifelog import`; the floor programs are built with `cc` first.
extension BenchmarkSuite {
  /// How many times the floor lifelog's commands may take.
  static let floorShare = 1.3
  static let floorRows = 100_000
  /// The most pages one `add` may write to the WAL.
  static let floorAddPages = 4.0

  func runFloor(report: (Figure) -> Void) throws {
    let sources = Self.floorSourceFolder()
    let floorAdd = folder + "/floor-add"
    let floorList = folder + "/floor-list"
    for (source, binary) in [("floor-add.c", floorAdd), ("floor-list.c", floorList)] {
      try ChildCommand(
        executable: "/usr/bin/cc",
        arguments: ["-O2", sources + "/" + source, "-o", binary, "-lsqlite3"],
        environment: ["PATH": "/usr/bin:/bin"]
      ).check()
    }
    let csv = folder + "/floor-100k.csv"
    _ = try Self.writeSampleCSV(to: csv, rows: Self.floorRows)
    let log = folder + "/floor-lifelog.db"
    try lifelogCommand(["import", csv, "--kind", "other"], database: log).check()
    let count = try LogStore(path: log).entryCount()
    guard count == Self.floorRows else {
      throw BenchmarkError("the floor log holds \(count) entries, not \(Self.floorRows)")
    }
    // The floor writes to its own copy (its one-row table is not lifelog's).
    let floorLog = folder + "/floor-floor.db"
    try ChildCommand(
      executable: "/bin/cp", arguments: [log, floorLog], environment: ["PATH": "/usr/bin:/bin"]
    ).check()
    sync()
    let addFloor = ChildCommand(
      executable: floorAdd, arguments: [floorLog], environment: ["PATH": "/usr/bin:/bin"])
    let listFloor = ChildCommand(
      executable: floorList, arguments: [floorLog], environment: ["PATH": "/usr/bin:/bin"])
    try paired(
      "add_vs_floor_ratio",
      lifelog: { lifelogCommand(["add", "lunch", "salad"], database: log) },
      peer: { addFloor }, goal: Self.floorShare, report: report)
    try reportAddPages(log: log, report: report)
    for (name, arguments) in [
      ("list20_vs_floor_ratio", ["list", "--limit", "20"]),
      ("due_short_vs_floor_ratio", ["due", "--short"]),
      ("show_last_vs_floor_ratio", ["show", "last"]),
    ] {
      try paired(
        name, lifelog: { lifelogCommand(arguments, database: log) }, peer: { listFloor },
        goal: Self.floorShare, report: report)
    }
  }

  /// The pages one `add` writes to the WAL, the usual add's and the mean.
  ///
  /// The WAL is emptied into the log, then 100 adds, each add's frames counted from the WAL's growth (a frame is a 24-byte header and one 4,096-byte
  /// page; the WAL's own header is 32). `add_wal_pages` is the usual add (the median);
  /// `add_wal_pages_mean` counts the adds that also rebalance an index's leaves, as a random id
  /// landing on a full leaf of `entry_by_id` does (docs/benchmarks.md, "Schema v8"). An add whose
  /// command empties the WAL when it closes (past 512 KiB) is not counted: its frames are gone.
  func reportAddPages(log: String, report: (Figure) -> Void) throws {
    do {
      let database = try Database(path: log, mode: .readWrite)
      try database.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    let frame = 4096 + 24
    var before = 32
    var pages: [Int] = []
    for _ in 0..<100 {
      try lifelogCommand(["add", "lunch", "salad"], database: log).check()
      var info = stat()
      guard stat(log + "-wal", &info) == 0 else {
        throw BenchmarkError("the floor log has no WAL after an add")
      }
      let after = Int(info.st_size)
      if after > before { pages.append((after - before) / frame) }
      before = after
    }
    guard !pages.isEmpty else { throw BenchmarkError("no add of the 100 grew the WAL") }
    pages.sort()
    let median = Double(pages[pages.count / 2])
    let mean = Double(pages.reduce(0, +)) / Double(pages.count)
    let usual = pages.filter { $0 <= Int(Self.floorAddPages) }.count
    Log.info(
      "add_wal_pages: \(pages.count) adds counted: \(usual) wrote at most "
        + "\(Int(Self.floorAddPages)) pages, the largest \(pages.last ?? 0)")
    report(
      Figure(
        name: "add_wal_pages", value: median, unit: "pages", goal: .atMost(Self.floorAddPages),
        decimals: 1))
    report(
      Figure(
        name: "add_wal_pages_mean", value: mean, unit: "pages",
        goal: .atMost(Self.floorAddPages), decimals: 2))
  }

  /// `scripts/floor` of this checkout (the benchmark runs from its build folder).
  static func floorSourceFolder() -> String {
    var path = #filePath
    for _ in 0..<3 {
      if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
    }
    return path + "/scripts/floor"
  }
}
