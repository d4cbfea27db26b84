import LifelogCore

/// `--format html`: one self-contained, printable page with charts; the whole report, since its
/// summary comes first.
struct HTMLReportFormat: ReportRenderer {
  let name = "html"
  let aliases = ["htm"]

  /// Notes only where meals are listed one by one (the compact and activity reports show none).
  func fields(for kind: ReportKind) -> ReportLog.Fields { kind == .meals ? .notes : [] }

  func write(_ job: ReportJob) throws {
    try job.writeWhole { content, _, write in ReportHTML(content: content).render(write) }
  }
}
