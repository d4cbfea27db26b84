import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

/// Reports over long ranges and in parts, through the real binary.
///
/// A range of any length inside 1900-01-01 ... 9999-12-31 is reported, one outside it is refused with 65, and the output does
/// not depend on how many entries are read per query (`LIFELOG_REPORT_PART_ENTRIES`).
@Suite struct ReportRangeBinaryTests {
  let folder = TemporaryDirectory()
  var path: String { folder.file("lifelog.db") }

  /// The report sample log, plus entries in 2001 and 2003 (a 25-year range) and three entries at
  /// one instant whose ids are not in the order they were stored (ties go by id).
  init() throws {
    let old: [ReportSampleLog.Row] = [
      ("walk", "2001-03-04T10:00:00+01:00", "first walk", 30 * 60, nil),
      ("lunch", "2001-03-04T13:00:00+01:00", "soup", nil, nil),
      ("sleep", "2003-07-01T23:00:00+02:00", nil, 8 * 3600, nil),
    ]
    let store = try ReportSampleLog.build(
      at: path, rows: old + ReportSampleLog.october + ReportSampleLog.march)
    let snack = try #require(try store.activities().first { $0.name == "snack" })
    let noon = try ISO8601Time.parse("2026-10-26T12:00:00+01:00")
    try store.add(
      contentsOf: ["f", "a", "c"].map {
        NewEntry(
          id: $0 + "0000000-0000-4000-8000-000000000000", activityID: snack.id, time: noon,
          note: "tie " + $0)
      })
  }

  func run(_ arguments: [String], parts: String? = nil) throws -> CommandResult {
    var environment = [
      "LIFELOG_DB": path, "TZ": ReportSampleLog.zone, "LIFELOG_NOW": ReportSampleLog.now,
    ]
    if let parts { environment["LIFELOG_REPORT_PART_ENTRIES"] = parts }
    return try LifelogProcess.run(arguments, environment: environment)
  }

  @Test func aRangeOfTwentyFiveYearsIsReported() throws {
    let result = try run(["report", "activity", "--from", "2000-01-01", "--by", "month"])
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout.contains("2000-01-01"), "\(result)")
    // The 2001 walk (30m) and the October walks count in one total.
    let json = try run(
      ["report", "activity", "--from", "2000-01-01", "--to", "2026-10-27", "--format", "json"])
    #expect(json.exitCode == 0, "\(json)")
    #expect(json.stdout.contains("\"from\":\"2000-01-01\""), "\(json.stdout.prefix(300))")
    let all = try run(["report", "--from", "1900-01-01", "--to", "2030-12-31", "--format", "csv"])
    #expect(all.exitCode == 0, "\(all.stderr)")
    #expect(all.stdout.contains("2001-03-04,"), "\(all.stdout.prefix(300))")
    #expect(all.stdout.contains("\n1900-01-01,"), "\(all.stdout.prefix(300))")
    let last = try run(["report", "meals", "--from", "9999-12-25", "--to", "9999-12-31"])
    #expect(last.exitCode == 0, "\(last)")
    #expect(last.stdout.contains("Fri 9999-12-31"), "\(last)")
  }

  @Test(arguments: [
    (["--from", "1899-12-31", "--to", "1900-01-06"], "1899-12-31 to 1900-01-06"),
    (["--from", "1850-01-01"], "1850-01-01 to 2026-10-27"),
    (["--to", "1900-01-03"], "1899-12-28 to 1900-01-03"),
  ])
  func aRangeOutsideTheCalendarIsRefused(range: [String], named: String) throws {
    let result = try run(["report", "activity"] + range)
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stderr.contains("The range \(named) reaches outside 1900-01-01 to 9999-12-31"),
      "\(result)")
    #expect(result.stdout.isEmpty)
  }

  @Test(arguments: ["text", "md", "csv", "json", "html"])
  func readingInPartsGivesTheSameOutput(format: String) throws {
    for kind in [["report"], ["report", "meals"], ["report", "activity", "--by", "day"]] {
      let arguments = kind + ["--from", "2000-01-01", "--format", format]
      let whole = try run(arguments)
      #expect(whole.exitCode == 0, "\(whole)")
      for parts in ["1", "2", "7"] {
        let inParts = try run(arguments, parts: parts)
        #expect(inParts.exitCode == 0, "\(inParts)")
        #expect(inParts.stdout == whole.stdout, "\(arguments) in parts of \(parts)")
      }
    }
  }

  /// A range of centuries costs no more memory than a week.
  ///
  /// The activity report as JSON, text, Markdown and HTML over 1,300 years by month (475,000
  /// nights, 57 MB of JSON written) and 300 years by day, with the binary's address space
  /// limited to 128 MiB (`ulimit -v`). Before the report held only the periods and nights with
  /// entries, and wrote its tables and JSON in pieces, it needed 200 MB to 1 GB for these.
  @Test(arguments: [
    ("json", "month", "3199-12-31"), ("json", "day", "2199-12-31"),
    ("text", "month", "3199-12-31"), ("text", "day", "2199-12-31"),
    ("md", "month", "3199-12-31"), ("html", "month", "3199-12-31"),
  ])
  func aRangeOfCenturiesFitsInAFixedAddressSpace(format: String, by: String, to: String) throws {
    let (status, tail, message) = try runLimited(
      kilobytes: 131_072,
      ["report", "activity", "--format", format, "--by", by, "--from", "1900-01-01", "--to", to],
      after: "tail -c 300 \"$OUTPUT\"")
    #expect(status == 0, "\(message)")
    guard format == "json" else {
      // The last night, then the average over every night of the range.
      let last = try #require(CivilDate(year: Int(to.prefix(4)) ?? 0, month: 12, day: 31))
      let nights = last.daysSinceEpoch - ReportRange.earliest.daysSinceEpoch + 1
      #expect(tail.contains(" \(to)"), "\(tail)")
      #expect(tail.contains(" of \(nights) nights "), "\(tail)")
      if format == "text" { #expect(tail.contains("not logged\nAverage "), "\(tail)") }
      return
    }
    #expect(
      tail.hasSuffix(
        "\"date\":\"\(to)\",\"entries\":0,\"sleptSeconds\":0,\"untimedEntries\":0,\"bedtime\":null,\"wakeTime\":null}\n]}}\n"
      ), "\(tail)")
  }

  /// The meal diary over 1,300 years (475,000 days, nearly all without meals) costs no more
  /// memory than a week.
  ///
  /// `report` (its compact table of meals has a row per day) and `report meals` in the formats
  /// that hold the diary, run with the binary's address space limited to 48 MiB (`ulimit -v`;
  /// the binary runs such a report in under 32). Before the diary held only the days with meals,
  /// each of these needed 60 to 150 MB and was killed here. The summary still counts every day
  /// that is over.
  @Test(arguments: [
    ("report", "text"), ("report", "md"), ("report", "html"),
    ("meals", "text"), ("meals", "md"), ("meals", "html"),
  ])
  func aMealDiaryOfCenturiesFitsInAFixedAddressSpace(kind: String, format: String) throws {
    let last = try #require(CivilDate(year: 3199, month: 12, day: 31))
    // Days from the sample's today on are not over yet: shown, but not counted.
    let today = try #require(CivilDate(year: 2026, month: 10, day: 27))
    let days = today.daysSinceEpoch - ReportRange.earliest.daysSinceEpoch
    let unfinished = last.daysSinceEpoch - today.daysSinceEpoch + 1
    let expected =
      kind == "report"
      ? " of \(days) days on rhythm (\(unfinished) days not counted" : " of \(days) (meals, no gap"
    let arguments =
      (kind == "report" ? ["report"] : ["report", "meals"])
      + ["--format", format, "--from", "1900-01-01", "--to", "3199-12-31"]
    // The output (up to 300 MB of HTML) is searched where it is written, then removed.
    let (status, out, message) = try runLimited(
      kilobytes: 49_152, arguments,
      after: "grep -c -F -e \"$EXPECT\" \"$OUTPUT\"; tail -c 40 \"$OUTPUT\"; rm -f \"$OUTPUT\"",
      environment: ["EXPECT": expected])
    #expect(status == 0, "\(message)")
    #expect(out.hasPrefix("1\n"), "\(expected) not once in: \(out)")
    if format == "html" { #expect(out.hasSuffix("</html>\n"), "\(out)") }
  }

  /// A diary whose every gap is flagged holds each meal once.
  ///
  /// 300,000 snacks a minute apart (every gap far too short), reported by `report`,
  /// `report meals` and its HTML with the binary's address space limited to 56 MiB (the debug
  /// binary needs some 47). A meal is held in 24 bytes with its gap and flag; when each day also
  /// held a record per flagged gap (some 56 bytes, in arrays grown by doubling), even the
  /// release binary needed 66 MiB here.
  @Test func aDiaryOfFlaggedGapsHoldsEachMealOnce() throws {
    let many = folder.file("snacks.db")
    let store = try LogStore(path: many)
    let snack = try #require(try store.activities().first { $0.name == "snack" })
    let start = try ISO8601Time.parse("2026-01-01T00:00:00+01:00")
    let meals = 300_000
    try store.add(
      contentsOf: (0..<meals).map {
        NewEntry(
          id: ReportSampleLog.id($0 + 1), activityID: snack.id,
          time: LoggedTime(instant: start.instant + Int64($0) * 60, offsetMinutes: 60),
          note: $0 % 3 == 0 ? "apple" : nil)
      })
    let range = ["--from", "2026-01-01", "--to", "2026-07-31"]
    for kind in [["report"], ["report", "meals"], ["report", "meals", "--format", "html"]] {
      let (status, tail, message) = try runLimited(
        kilobytes: 57_344, kind + range, after: "tail -c 20 \"$OUTPUT\"; rm -f \"$OUTPUT\"",
        environment: ["LIFELOG_DB": many])
      #expect(status == 0, "\(kind): \(message)")
      if kind.last == "html" { #expect(tail.hasSuffix("</html>\n"), "\(tail)") }
    }
  }

  /// Runs the binary with `arguments` under `ulimit -v kilobytes`, its output in a file
  /// (`$OUTPUT`) that the shell commands `after` then read; gives the exit status, what `after`
  /// printed and the binary's errors.
  private func runLimited(
    kilobytes: Int, _ arguments: [String], after: String, environment: [String: String] = [:]
  ) throws -> (status: Int32, stdout: String, stderr: String) {
    let script =
      "ulimit -v \(kilobytes) || exit 99; \"$0\" \"$@\" > \"$OUTPUT\"; status=$?; \(after); exit $status"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script, LifelogProcess.binaryPath] + arguments
    process.environment = [
      "PATH": "/usr/bin:/bin", "LIFELOG_DB": path, "TZ": ReportSampleLog.zone,
      "LIFELOG_NOW": ReportSampleLog.now, "OUTPUT": folder.file("report.out"),
    ].merging(environment) { $1 }
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let errors = AsyncData(stderr.fileHandleForReading)
    let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, out, String(decoding: errors.wait(), as: UTF8.self))
  }

  @Test func tiesAtOneInstantGoByIdAcrossParts() throws {
    let result = try run(
      ["report", "meals", "--from", "2026-10-26", "--to", "2026-10-26", "--format", "csv"],
      parts: "1")
    let ties = result.stdout.split(whereSeparator: \.isNewline).filter { $0.contains(",tie ") }
    #expect(ties.map { $0.contains("a0000000") } == [true, false, false], "\(ties)")
    #expect(ties.map { $0.contains("f0000000") } == [false, false, true], "\(ties)")
  }

  @Test(arguments: ["0", "-5", "1000001", "many", "99999999999999999999"])
  func aBadPartSizeIsRefused(value: String) throws {
    let result = try run(["report"], parts: value)
    #expect(result.exitCode == 78, "\(result)")
    #expect(result.stderr.contains("LIFELOG_REPORT_PART_ENTRIES is '\(value)'"), "\(result)")
  }
}
