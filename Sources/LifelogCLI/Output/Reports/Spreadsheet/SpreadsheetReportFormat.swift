import LifelogCore

/// `--format xlsx`: the meal report as a workbook (``ReportSpreadsheet``); a file only.
struct SpreadsheetReportFormat: ReportRenderer {
  let name = "xlsx"

  func check(_ request: ReportRequest) throws(UsageError) {
    guard request.kind != .activity else {
      throw UsageError(
        "A spreadsheet report is the meal report; use 'lifelog report meals --format xlsx'")
    }
    guard request.outputPath != nil else {
      throw UsageError(
        "A spreadsheet report is a file, not text for a terminal: give --output FILE, such as 'meals.xlsx'"
      )
    }
  }

  /// Notes always: the workbook lists meals one by one.
  func fields(for kind: ReportKind) -> ReportLog.Fields { .notes }

  /// Writes the workbook like every report file: atomically, readable only by its owner when new.
  func write(_ job: ReportJob) throws {
    guard let path = job.request.outputPath else { return }
    try ReportSpreadsheet.checkRange(job.reader.range)
    let request = ReportAggregator.Request(
      meals: true, activities: nil, grouping: job.request.grouping)
    let built = try ReportAggregator.build(request, from: job.reader, zone: job.context.zone)
    guard let meals = built.meals else { return }
    let book = try SpreadsheetBook(replacing: try OutputFile(replacing: path), streaming: false)
    try ReportSpreadsheet(report: meals).write(to: book)
    try book.commit()
    job.sayWrote(.meals, to: path)
  }
}
