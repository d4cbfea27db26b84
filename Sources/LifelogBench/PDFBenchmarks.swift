@preconcurrency import Glibc
import LifelogCore

/// The PDF meal report and the Polish text report, over the year of one person's log:
///
/// * `report_pdf_4weeks_ms` and `report_pdf_year_ms`: `report meals --format pdf` over the last
///   four weeks and over the year, the whole process (cairo and pango loaded, the file written).
/// * `report_pdf_year_peak_mb`: the year's PDF's peak memory (`/usr/bin/time -f %M`).
/// * `report_text_pl_overhead_pct`: how much longer `report meals --lang pl` (text) takes than
///   `--lang en`, from the medians of interleaved runs.
extension BenchmarkSuite {
  func runPDFReports(
    year: (range: [String], path: String), today: CivilDate, report: (Figure) -> Void
  ) throws {
    let output = folder + "/report.pdf"
    let weeks = ["--from", "\(today.adding(days: -28))", "--to", "\(today.adding(days: -1))"]
    for (name, range, goal) in [
      ("report_pdf_4weeks_ms", weeks, 300.0), ("report_pdf_year_ms", year.range, 3000.0),
    ] {
      let command = lifelogCommand(
        ["report", "meals", "--format", "pdf", "--output", output] + range, database: year.path)
      let samples = try latency(name, of: command, runs: 10)
      report(
        Figure(
          name: name, value: samples.median * 1e3, unit: "ms", goal: .atMost(goal), decimals: 1))
    }
    let peakFile = folder + "/report_pdf_year_peak.txt"
    let command = ChildCommand(
      executable: "/usr/bin/time",
      arguments: [
        "-f", "%M", "-o", peakFile, lifelog, "report", "meals", "--format", "pdf", "--output",
        output,
      ] + year.range,
      environment: ["LIFELOG_DB": year.path, "TZ": "UTC", "HOME": folder, "PATH": "/usr/bin:/bin"])
    _ = try command.timedRun()
    report(
      Figure(
        name: "report_pdf_year_peak_mb", value: Double(try Self.peakKilobytes(in: peakFile)) / 1024,
        unit: "MB", goal: .atMost(100), decimals: 1))
    unlink(output)
    var english: [Double] = []
    var polish: [Double] = []
    for _ in 0..<Self.reportRuns {
      for (language, times) in [("en", 0), ("pl", 1)] {
        let seconds = try lifelogCommand(
          ["report", "meals", "--lang", language] + year.range, database: year.path
        ).timedRun()
        if times == 0 { english.append(seconds) } else { polish.append(seconds) }
      }
    }
    let median = { (values: [Double]) in values.sorted()[values.count / 2] }
    report(
      Figure(
        name: "report_text_pl_overhead_pct",
        value: (median(polish) / median(english) - 1) * 100, unit: "%", goal: .atMost(5),
        decimals: 1))
  }
}
