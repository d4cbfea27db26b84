@preconcurrency import Glibc
import LifelogCore

/// The figures of `lifelog import --from`: 100,000 timewarrior intervals into a new
/// log (rows per second, whole process), and a 1 GB Apple Health export.xml (peak memory of the
/// child `lifelog`, from getrusage, which must stay bounded whatever the file's size).
extension BenchmarkSuite {
  static let timewarriorIntervals = 100_000
  static let healthExportBytes: Int64 = 1 << 30

  func runImports(report: (Figure) -> Void) throws {
    let export = folder + "/timew-100k.json"
    try Self.writeFile(export) { write in
      write("[\n")
      let base: Int64 = 1_600_000_000
      for index in 0..<Self.timewarriorIntervals {
        let start = Self.timewarriorTime(base + Int64(index) * 3600)
        let end = Self.timewarriorTime(base + Int64(index) * 3600 + 1800 + Int64(index % 600))
        let comma = index == Self.timewarriorIntervals - 1 ? "" : ","
        write(
          "{\"id\":\(Self.timewarriorIntervals - index),\"start\":\"\(start)\",\"end\":\"\(end)\","
            + "\"tags\":[\"\(["code", "write", "read"][index % 3])\",\"project\(index % 7)\"]"
            + (index % 4 == 0 ? ",\"annotation\":\"interval \(index)\"" : "") + "}\(comma)\n")
      }
      write("]\n")
    }
    sync()
    let database = folder + "/timew-100k.db"
    try reportImport(
      "import_timewarrior_100k", ["import", "--from", "timewarrior", "--kind", "other", export],
      into: database, rows: Self.timewarriorIntervals, of: "100,000 intervals", report: report)
    unlink(export)

    let xml = folder + "/export.xml"
    let days = try Self.writeHealthExport(to: xml, bytes: Self.healthExportBytes)
    sync()
    let healthDatabase = folder + "/health-1g.db"
    let health = try lifelogCommand(
      ["import", "--from", "apple-health", xml], database: healthDatabase
    ).timedRunWithUsage()
    let imported = try LogStore(path: healthDatabase).entryCount()
    guard imported == days * 3 else {  // a workout, a night and a meal a day
      throw BenchmarkError("the log holds \(imported) entries, not \(days * 3), after export.xml")
    }
    Log.info(
      "import_apple_health_1g: \(ms(health.seconds)), CPU \(ms(health.cpuSeconds)), "
        + "peak \(health.peakBytes >> 20) MiB")
    report(
      Figure(
        name: "import_apple_health_1g_peak_mb", value: Double(health.peakBytes) / 1_048_576,
        unit: "MB", goal: .atMost(100), decimals: 1))
    report(
      Figure(
        name: "import_apple_health_1g_mb_per_s",
        value: Double(Self.healthExportBytes) / 1_048_576 / health.seconds, unit: "MB/s",
        goal: .atLeast(10), decimals: 1))
    unlink(xml)
    try runSheetImport(report: report)
  }

  /// Runs `lifelog` with `arguments` (an import into the new log `database`), checks that the
  /// log then holds `rows` entries, and reports `<name>_rows_per_s` of the whole process.
  func reportImport(
    _ name: String, _ arguments: [String], into database: String, rows: Int, of what: String,
    report: (Figure) -> Void
  ) throws {
    let (seconds, cpu, peak) = try lifelogCommand(arguments, database: database)
      .timedRunWithUsage()
    let count = try LogStore(path: database).entryCount()
    guard count == rows else {
      throw BenchmarkError("the log holds \(count) entries after importing \(what)")
    }
    // The CPU time (both threads) says how much of the wall time was the machine's other work.
    Log.info("\(name): \(ms(seconds)), CPU \(ms(cpu)), peak \(peak >> 20) MiB")
    report(
      Figure(
        name: "\(name)_rows_per_s", value: Double(count) / seconds, unit: "rows/s",
        goal: .atLeast(100_000), decimals: 0))
  }

  private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// `20231001T103000Z`.
  static func timewarriorTime(_ instant: Int64) -> String {
    let iso = LoggedTime(instant: instant, offsetMinutes: 0).iso8601  // 2023-10-01T10:30:00+00:00
    return String(iso.prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
  }

  /// An export.xml of at least `bytes`: each day a few thousand step records (what makes real
  /// exports big), two asleep segments, a workout and a food correlation.
  ///
  /// - Returns: the number of days written.
  static func writeHealthExport(to path: String, bytes: Int64) throws -> Int {
    var days = 0
    var written: Int64 = 0
    try writeFile(path) { write in
      write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n")
      while written < bytes {
        let day = String(
          LoggedTime(instant: 1_500_000_000 + Int64(days) * 86_400, offsetMinutes: 0).iso8601
            .prefix(10))
        var block = ""
        block.reserveCapacity(1 << 20)
        for minute in 0..<1440 {
          let time = "\(two(minute / 60)):\(two(minute % 60))"
          block +=
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" "
            + "sourceVersion=\"17.1\" unit=\"count\" creationDate=\"\(day) \(time):30 +0000\" "
            + "startDate=\"\(day) \(time):00 +0000\" endDate=\"\(day) \(time):59 +0000\" "
            + "value=\"\(minute % 97)\"/>\n"
        }
        for (start, end) in [("00:10", "03:00"), ("03:20", "06:50")] {
          block +=
            " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Watch\" "
            + "startDate=\"\(day) \(start):00 +0000\" endDate=\"\(day) \(end):00 +0000\" "
            + "value=\"HKCategoryValueSleepAnalysisAsleepCore\"/>\n"
        }
        block +=
          " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" "
          + "durationUnit=\"min\" totalDistance=\"5\" totalDistanceUnit=\"km\" "
          + "startDate=\"\(day) 17:00:00 +0000\" endDate=\"\(day) 17:30:00 +0000\">\n"
          + "  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n </Workout>\n"
          + " <Correlation type=\"HKCorrelationTypeIdentifierFood\" "
          + "startDate=\"\(day) 12:30:00 +0000\" endDate=\"\(day) 12:30:00 +0000\">\n"
          + "  <MetadataEntry key=\"HKFoodType\" value=\"Soup\"/>\n"
          + "  <Record type=\"HKQuantityTypeIdentifierDietaryEnergyConsumed\" unit=\"kcal\" "
          + "startDate=\"\(day) 12:30:00 +0000\" endDate=\"\(day) 12:30:00 +0000\" "
          + "value=\"420\"/>\n </Correlation>\n"
        written += Int64(block.utf8.count)
        write(block)
        days += 1
      }
      write("</HealthData>\n")
    }
    return days
  }

  /// Writes a file through `body`, which hands text to the closure it is given.
  private static func writeFile(_ path: String, _ body: ((String) -> Void) throws -> Void) throws {
    guard let file = fopen(path, "w") else {
      throw BenchmarkError("cannot create '\(path)': \(String(cString: strerror(errno)))")
    }
    var failed = false
    try body { text in
      var text = text
      text.withUTF8 { bytes in
        if fwrite(bytes.baseAddress, 1, bytes.count, file) != bytes.count { failed = true }
      }
    }
    if fclose(file) != 0 || failed { throw BenchmarkError("cannot write '\(path)'") }
  }
}
