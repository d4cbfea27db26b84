import LifelogCore

/// `--format csv`: a row per entry, written a day at a time as the days close.
struct CSVReportFormat: ReportRenderer {
  let name = "csv"

  /// Every field, ids included: a spreadsheet joins on them.
  func fields(for kind: ReportKind) -> ReportLog.Fields { .all }

  func write(_ job: ReportJob) throws {
    try job.writeStreamed { sink in
      let csv = ReportCSV(kind: job.kind)
      sink.write { csv.header(&$0) }
      let request = ReportAggregator.Request(
        meals: true, activities: nil, grouping: job.request.grouping,
        keepsEntries: job.kind != .meals)
      _ = try ReportAggregator.stream(request, from: job.reader, zone: job.context.zone) { day in
        sink.write { csv.day(day, &$0) }
      }
    }
  }
}
