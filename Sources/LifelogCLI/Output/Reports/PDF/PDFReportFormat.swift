import LifelogCore

/// `--format pdf`: the meal report (``ReportPDF``) or the activity report (``ActivityPDF``), on
/// the `--paper` size or the locale's; a file only.
struct PDFReportFormat: ReportRenderer {
  let name = "pdf"

  func check(_ request: ReportRequest) throws(UsageError) {
    guard request.outputPath != nil else {
      throw UsageError("A PDF report needs a file: give --output FILE, such as 'meals.pdf'")
    }
  }

  /// Notes always: the PDF lists meals one by one.
  func fields(for kind: ReportKind) -> ReportLog.Fields { .notes }

  func write(_ job: ReportJob) throws {
    let context = job.context
    let activity = job.kind == .activity
    let request = ReportAggregator.Request(
      meals: !activity, activities: activity ? try job.store.activities() : nil,
      grouping: job.request.grouping)
    let built = try ReportAggregator.build(request, from: job.reader, zone: context.zone)
    let paper =
      job.request.paper
      ?? (Language.usesLetterPaper(environment: context.environment) ? .letter : .a4)
    let made = context.zone.loggedTime(at: context.now)
    let bytes: [UInt8]
    if let report = built.activity {
      bytes = try ActivityPDF(report: report, made: made, paper: paper).render()
    } else if let meals = built.meals {
      bytes = try ReportPDF(report: meals, made: made, paper: paper).render()
    } else {
      return
    }
    try job.writeFile(bytes, kind: activity ? .activity : .meals)
  }
}
