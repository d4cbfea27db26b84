@preconcurrency import Glibc
import LifelogCore

/// `export_xlsx_100k_ms`: `lifelog export --format xlsx --output FILE` of a 100,000-entry log,
/// the whole process (libxlsxwriter loaded, the workbook zipped, the file written atomically);
/// target at most 2 s.
extension BenchmarkSuite {
  func runSpreadsheet(report: (Figure) -> Void) throws {
    let path = folder + "/xlsx-100k.db"
    if access(path, F_OK) != 0 {
      let entries = SampleLog.entries(count: Self.entryCount, endingAt: BenchmarkSuite.now() - 60)
      try buildLog(at: path, with: entries)
      sync()
    }
    report(try exportSpreadsheet(of: path))
  }

  func exportSpreadsheet(of path: String) throws -> Figure {
    let output = folder + "/export-100k.xlsx"
    let command = lifelogCommand(
      ["export", "--format", "xlsx", "--output", output], database: path)
    let samples = try latency("export_xlsx_100k", of: command, warmups: 1, runs: 5)
    var info = stat()
    guard stat(output, &info) == 0, info.st_size > 0 else {
      throw BenchmarkError("'\(output)' was not written")
    }
    Log.info("export_xlsx_100k: \(info.st_size >> 10) KiB")
    unlink(output)
    return Figure(
      name: "export_xlsx_100k_ms", value: samples.median * 1e3, unit: "ms", goal: .atMost(2000),
      decimals: 1)
  }
}
