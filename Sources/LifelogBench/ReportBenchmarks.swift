@preconcurrency import Glibc
import LifelogCore

/// The report figures: `lifelog report` (both reports, compact) and `lifelog report meals` (the
/// full meal diary, the longest text) over a year of one person's log (~7,300 entries) and over
/// the 100,000-entry sample log, each the whole process and the whole range; the meal diary
/// as HTML over both; and the peak memory of each report kind over a 1,000,000-entry log.
extension BenchmarkSuite {
  static let reportRuns = 20
  /// Entries of the log the reports' peak memory is measured over.
  static let peakEntryCount = 1_000_000

  func runReports(report: (Figure) -> Void) throws {
    let today = CivilDate(daysSinceEpoch: BenchmarkSuite.now() / 86_400)
    let yearPath = folder + "/report-year.db"
    let yearEntries = try buildYear(at: yearPath, lastDay: today.adding(days: -1))
    let yearRange = ["--from", "\(today.adding(days: -365))", "--to", "\(today.adding(days: -1))"]

    Log.info("report: building \(Self.entryCount) sample entries")
    let entries = SampleLog.entries(count: Self.entryCount, endingAt: BenchmarkSuite.now() - 60)
    let bigPath = folder + "/report-100k.db"
    try buildLog(at: bigPath, with: entries)
    let bigRange = [
      "--from", "\(today.adding(days: -Int(SampleLog.span / 86_400) - 2))", "--to", "\(today)",
    ]
    sync()

    try checkMealCount(
      ["report", "meals"] + yearRange, database: yearPath, meals: SampleYear.mealCount(yearEntries))
    try checkMealCount(["report", "meals"] + bigRange, database: bigPath, meals: Self.entryCount)
    for (name, arguments, database) in [
      ("report_year_ms", ["report"] + yearRange, yearPath),
      ("report_meals_year_ms", ["report", "meals"] + yearRange, yearPath),
      ("report_100k_ms", ["report"] + bigRange, bigPath),
      ("report_meals_100k_ms", ["report", "meals"] + bigRange, bigPath),
    ] {
      let samples = try latency(
        name, of: lifelogCommand(arguments, database: database), runs: Self.reportRuns)
      report(
        Figure(name: name, value: samples.median * 1e3, unit: "ms", goal: .atMost(60), decimals: 1)
      )
    }
    try runHTMLReports(
      year: (yearRange, yearPath, SampleYear.mealCount(yearEntries)),
      big: (bigRange, bigPath, Self.entryCount), report: report)
    try runReportPeaks(today: today, report: report)
    try runPDFReports(year: (yearRange, yearPath), today: today, report: report)
  }

  /// `report_<kind>_1m_peak_mb`: each report kind's peak memory over a 1,000,000-entry log.
  ///
  /// The peak resident set size (`%M` of `/usr/bin/time`, Debian's `time`) of each report kind
  /// over the whole range of a 1,000,000-entry log, output discarded: `lifelog report` (text),
  /// `report meals`, `report activity`, the meal diary as HTML, Markdown, JSON and CSV, and
  /// `report` as JSON, as CSV (every entry) and as HTML (a timeline mark per meal). One run
  /// each: the peak does not vary with the machine's load.
  ///
  /// `report_activity_json_calendar_peak_mb`: `report activity --format json --by month` over
  /// the whole calendar, 1900-01-01 to 9999-12-31, the same entries in 2.96 million days (a
  /// night each, 97,000 months): what a report holds must not grow with the days a flag asks
  /// for (it wrote some 350 MB and peaked at 1.45 GB when it held a period and night each).
  ///
  /// `report_calendar_peak_mb`: `lifelog report` (text) over the same whole calendar: the held
  /// meal diary and its compact table, a row per day (it wrote some 95 MB and peaked at 897 MB
  /// when it held a day object and a row of strings per day of the range).
  ///
  /// Not `ru_maxrss` from `wait4` on a child spawned here: `posix_spawn` starts the child in
  /// this process's memory, and the kernel carries that memory's peak (the benchmark's own, some
  /// 300 MB after building the log) into the child's figure at `exec`. `/usr/bin/time` forks a
  /// copy of its own small process instead.
  private func runReportPeaks(today: CivilDate, report: (Figure) -> Void) throws {
    Log.info("report: building \(Self.peakEntryCount) sample entries")
    let path = folder + "/report-1m.db"
    try buildLog(
      at: path,
      with: SampleLog.entries(count: Self.peakEntryCount, endingAt: BenchmarkSuite.now() - 60))
    sync()
    let range = [
      "--from", "\(today.adding(days: -Int(SampleLog.span / 86_400) - 2))", "--to", "\(today)",
    ]
    let calendar = ["--from", "1900-01-01", "--to", "9999-12-31"]
    for (kind, arguments) in [
      ("text_1m", ["report"] + range), ("meals_1m", ["report", "meals"] + range),
      ("activity_1m", ["report", "activity"] + range),
      ("html_1m", ["report", "meals", "--format", "html"] + range),
      ("meals_md_1m", ["report", "meals", "--format", "md"] + range),
      ("meals_json_1m", ["report", "meals", "--format", "json"] + range),
      ("meals_csv_1m", ["report", "meals", "--format", "csv"] + range),
      ("json_1m", ["report", "--format", "json"] + range),
      ("csv_1m", ["report", "--format", "csv"] + range),
      ("compact_html_1m", ["report", "--format", "html"] + range),
      (
        "activity_json_calendar",
        ["report", "activity", "--format", "json", "--by", "month"] + calendar
      ),
      ("calendar", ["report"] + calendar),
    ] {
      let name = "report_\(kind)_peak_mb"
      let peakFile = folder + "/\(name).txt"
      let command = ChildCommand(
        executable: "/usr/bin/time",
        arguments: ["-f", "%M", "-o", peakFile, lifelog] + arguments,
        environment: [
          "LIFELOG_DB": path, "TZ": "UTC", "HOME": folder, "PATH": "/usr/bin:/bin",
        ])
      let seconds = try command.timedRun()
      let kilobytes = try Self.peakKilobytes(in: peakFile)
      Log.info("\(name): \(command.commandLine): \(ms(seconds)), peak \(kilobytes) KiB")
      report(
        Figure(
          name: name, value: Double(kilobytes) / 1024, unit: "MB", goal: .atMost(100), decimals: 1))
    }
    removeLog(at: path)
  }

  /// `lifelog report meals --format html` (the full diary: every meal a mark on the timeline and
  /// a table row) over the year and over 100,000 entries, each first checked for its meal count.
  private func runHTMLReports(
    year: (range: [String], path: String, meals: Int),
    big: (range: [String], path: String, meals: Int), report: (Figure) -> Void
  ) throws {
    for (name, log) in [("report_html_year_ms", year), ("report_html_100k_ms", big)] {
      let arguments = ["report", "meals"] + log.range + ["--format", "html"]
      let command = lifelogCommand(arguments, database: log.path)
      let output = try command.capturedOutput()
      let marks = Self.occurrences(of: Array("<circle class=\"meal".utf8), in: output)
      guard marks == log.meals else {
        throw BenchmarkError(
          "'\(command.commandLine)' draws \(marks) meal marks, not \(log.meals)")
      }
      Log.info("report meals --format html: \(marks) meals, \(output.count) bytes of HTML")
      let samples = try latency(name, of: command, runs: Self.reportRuns)
      report(
        Figure(name: name, value: samples.median * 1e3, unit: "ms", goal: .atMost(120), decimals: 1)
      )
    }
  }

  /// The peak in KiB that `/usr/bin/time -f %M -o path` wrote (its last line).
  static func peakKilobytes(in path: String) throws -> Int {
    guard let file = fopen(path, "r") else {
      throw BenchmarkError("/usr/bin/time wrote no '\(path)'; is Debian's 'time' installed?")
    }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    var last = ""
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(
        decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if text.contains(where: \.isNumber) { last = text }
    }
    let digits = last.filter { !$0.isWhitespace }
    guard digits.count <= 12, let kilobytes = Int(digits), kilobytes > 0 else {
      throw BenchmarkError("'\(path)' does not end with a peak in KiB: '\(last)'")
    }
    return kilobytes
  }

  /// How many times `needle` occurs in `bytes`.
  private static func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> Int {
    guard let first = needle.first, bytes.count >= needle.count else { return 0 }
    var count = 0
    var index = 0
    while index <= bytes.count - needle.count {
      if bytes[index] == first && bytes[index..<(index + needle.count)].elementsEqual(needle) {
        count += 1
        index += needle.count
      } else {
        index += 1
      }
    }
    return count
  }

  /// Writes a year of entries into a new log at `path` and closes it (so no open connection
  /// keeps its WAL while the reports are timed).
  private func buildYear(at path: String, lastDay: CivilDate) throws -> [NewEntry] {
    let store = try LogStore(path: path)
    let entries = try SampleYear.prepare(store, lastDay: lastDay)
    try store.add(contentsOf: entries)
    Log.info("built \(path) with \(entries.count) entries")
    return entries
  }

  /// Runs a meal report once and fails unless its summary counts `meals` meals.
  private func checkMealCount(_ arguments: [String], database: String, meals: Int) throws {
    let command = lifelogCommand(arguments, database: database)
    let output = String(decoding: try command.capturedOutput(), as: UTF8.self)
    guard output.contains("\n  Meals               \(meals), ") else {
      throw BenchmarkError("'\(command.commandLine)' does not report \(meals) meals")
    }
    Log.info(
      "\(arguments.prefix(2).joined(separator: " ")): \(meals) meals, \(output.utf8.count) bytes of text"
    )
  }
}
