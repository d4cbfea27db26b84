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

  /// The pages one `add` writes to the WAL (`add_wal_pages`): the WAL emptied into the log, then
  /// ten adds, each frame a 24-byte header and one 4,096-byte page (the WAL's own header is 32).
  func reportAddPages(log: String, report: (Figure) -> Void) throws {
    do {
      let database = try Database(path: log, mode: .readWrite)
      try database.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    let adds = 10
    for _ in 0..<adds { try lifelogCommand(["add", "lunch", "salad"], database: log).check() }
    var info = stat()
    guard stat(log + "-wal", &info) == 0, info.st_size > 32 else {
      throw BenchmarkError("the floor log has no WAL after \(adds) adds")
    }
    let pages = Double(Int(info.st_size) - 32) / Double((4096 + 24) * adds)
    report(
      Figure(
        name: "add_wal_pages", value: pages, unit: "pages", goal: .atMost(Self.floorAddPages),
        decimals: 1))
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
