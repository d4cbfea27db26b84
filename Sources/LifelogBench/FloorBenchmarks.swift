@preconcurrency import Glibc
import LifelogCore

/// The floor figures: lifelog's `add`, `list --limit 20`, `due --short` and `show last` against
/// the least a process can do for them on the same log through the same libsqlite3
/// (`scripts/floor/`: a C program that opens the log and commits one one-row transaction with
/// `synchronous = FULL`, and one that reads and prints the 20 latest live entries with their
/// activity names). Paired run by run as the peers are (``paired(_:lifelog:peer:goal:report:runs:)``),
/// on a 100,000-entry log made by `lifelog import`; the floor programs are built with `cc` first.
extension BenchmarkSuite {
  /// How many times the floor lifelog's commands may take (issue 27).
  static let floorShare = 1.3
  static let floorRows = 100_000

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

  /// `scripts/floor` of this checkout (the benchmark runs from its build folder).
  static func floorSourceFolder() -> String {
    var path = #filePath
    for _ in 0..<3 {
      if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
    }
    return path + "/scripts/floor"
  }
}
