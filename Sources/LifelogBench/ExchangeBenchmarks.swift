@preconcurrency import Glibc
import LifelogCore
import LifelogExchange

/// The import and export figures: `lifelog import` of a 1,000,000-row CSV file into a new log
/// (rows per second, target 300,000, and peak memory from `wait4`), then `lifelog export` of those
/// rows as CSV. Both are the whole process, as a script runs them.
extension BenchmarkSuite {
  static let exchangeRows = 1_000_000

  func runExchange(report: (Figure) -> Void) throws {
    let csv = folder + "/import-1m.csv"
    let database = folder + "/import-1m.db"
    let bytes = try Self.writeSampleCSV(to: csv, rows: Self.exchangeRows)
    Log.info("exchange: wrote \(Self.exchangeRows) rows to \(csv) (\(bytes >> 20) MiB)")
    sync()
    let (seconds, cpu, peak) = try lifelogCommand(
      ["import", csv, "--kind", "other"], database: database
    )
    .timedRunWithUsage()
    let count = try LogStore(path: database).entryCount()
    guard count == Self.exchangeRows else {
      throw BenchmarkError(
        "the log holds \(count) entries after importing \(Self.exchangeRows) rows")
    }
    Log.info(
      "import_csv_1m: \(ms(seconds)), CPU \(ms(cpu)) (both threads), peak \(peak >> 20) MiB")
    let importRate = Double(count) / seconds
    report(
      Figure(
        name: "import_csv_1m_rows_per_s", value: importRate, unit: "rows/s",
        goal: .atLeast(300_000), decimals: 0))
    report(
      Figure(
        name: "import_csv_1m_peak_mb", value: Double(peak) / 1_048_576, unit: "MB",
        goal: .atMost(100), decimals: 1))

    let exported = folder + "/export-1m.csv"
    try lifelogCommand(["export", "--output", exported], database: database).check()
    let lines = try Self.countLines(inFile: exported)
    guard lines == Self.exchangeRows + 1 else {
      throw BenchmarkError(
        "the export holds \(lines) lines, not a header and \(Self.exchangeRows) rows")
    }
    unlink(exported)
    let export = try latency(
      "export_csv_1m", of: lifelogCommand(["export"], database: database), warmups: 1, runs: 3)
    report(
      Figure(
        name: "export_csv_1m_rows_per_s", value: Double(Self.exchangeRows) / export.median,
        unit: "rows/s",
        goal: .atLeast(500_000), decimals: 0))
  }

  /// A CSV file as another tool would write it: no ids, times in ISO 8601 with an offset, some
  /// durations (seconds), notes (some quoted), quantities and tags.
  ///
  /// The same file for every run.
  ///
  /// - Returns: its size in bytes.
  static func writeSampleCSV(to path: String, rows: Int) throws -> Int {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw BenchmarkError("cannot create '\(path)': \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    let activities = ["breakfast", "lunch", "dinner", "snack", "walk", "run", "sleep", "tea"]
    let notes = SampleLog.notes.map {
      $0.contains(",") || $0.contains("\"") ? "\"" + $0.replacing("\"", with: "\"\"") + "\"" : $0
    }
    var random = SplitMix64(seed: 0x1A9_0C5F)
    var instant: Int64 = 1_735_689_600  // 2025-01-01
    var text = "at,activity,duration,note,quantity,tags\r\n"
    var total = 0
    for row in 0..<rows {
      instant += Int64.random(in: 30...120, using: &random)
      let offset = row % 5 == 0 ? 120 : 60
      let activity = activities[Int.random(in: 0..<activities.count, using: &random)]
      text += LoggedTime(instant: instant, offsetMinutes: offset).iso8601 + "," + activity + ","
      if activity == "walk" || activity == "run" || activity == "sleep" {
        text += String(60 * Int.random(in: 5...90, using: &random))
      }
      text += ","
      if Int.random(in: 0..<10, using: &random) < 6 {
        text += notes[Int.random(in: 0..<notes.count, using: &random)]
      }
      text += ","
      if activity == "walk" || activity == "run" {
        text += String(Int.random(in: 1...12, using: &random))
      }
      text += ","
      if Int.random(in: 0..<10, using: &random) < 3 {
        text += SampleLog.tags[Int.random(in: 0..<SampleLog.tags.count, using: &random)]
      }
      text += "\r\n"
      if text.utf8.count > 1 << 20 || row == rows - 1 {
        total += text.utf8.count
        try writeAll(text, to: descriptor, path: path)
        text = ""
      }
    }
    return total
  }

  private static func writeAll(_ text: String, to descriptor: Int32, path: String) throws {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes {
        write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw BenchmarkError("cannot write '\(path)': \(String(cString: strerror(errno)))")
      }
      offset += written
    }
    bytes.removeAll()
  }

  /// The number of LF bytes in a file, read in 1 MiB chunks.
  static func countLines(inFile path: String) throws -> Int {
    let input = try ChunkedReader(path: path)
    var lines = 0
    while try input.refill() {
      for index in 0..<input.count where input.chunk[index] == 0x0A { lines += 1 }
    }
    return lines
  }
}
