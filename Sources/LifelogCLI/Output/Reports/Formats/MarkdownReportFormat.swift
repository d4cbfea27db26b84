import LifelogCore

/// `--format md`: Markdown; the meal diary is written a day at a time as the days close.
struct MarkdownReportFormat: ReportRenderer {
  let name = "md"
  let aliases = ["markdown"]

  /// Notes only where meals are listed one by one (the compact and activity reports show none).
  func fields(for kind: ReportKind) -> ReportLog.Fields { kind == .meals ? .notes : [] }

  func write(_ job: ReportJob) throws {
    guard job.kind == .meals else {
      return try job.writeWhole { content, _, write in
        ReportMarkdown(content: .init(content)).render(write)
      }
    }
    try job.writeStreamed { sink in try Self.streamMeals(job, to: sink) }
  }

  /// The summary goes first, where a reader looks; it is known only once every day is read, so
  /// the days are read twice (in one read transaction, so both passes see the same log), which
  /// keeps the memory of one day instead of holding the whole diary.
  private static func streamMeals(_ job: ReportJob, to sink: ReportSink) throws {
    let reader = job.reader
    let zone = job.context.zone
    let markdown = ReportMarkdown(
      content: .init(kind: job.kind, range: reader.range, settings: reader.settings))
    let request = ReportAggregator.Request(
      meals: true, activities: nil, grouping: job.request.grouping)
    var first = request
    first.countsSheet = true
    let counted = try ReportAggregator.stream(first, from: reader, zone: zone) { _ in }
    sink.write(markdown.mealsHeading())
    if let sheet = counted.sheet {
      sink.write(
        markdown.mealsSheet(
          MealSheetText(
            range: reader.range, settings: reader.settings, summary: counted.summary,
            sheet: sheet)))
    }
    sink.write(markdown.mealsSummary(counted.summary, offsets: counted.offsets))
    sink.write("\n## " + Translation.current("Days") + "\n")
    _ = try ReportAggregator.stream(request, from: reader, zone: zone) { day in
      sink.write { $0.append(markdown.mealDay(day)) }
    }
  }
}
