import LifelogCore

/// `--format json`: one JSON object; with the meal diary written a day at a time as the days close.
struct JSONReportFormat: ReportRenderer {
  let name = "json"

  /// Every field, ids included, where entries are listed (the activity report lists none).
  func fields(for kind: ReportKind) -> ReportLog.Fields { kind == .activity ? [] : .all }

  func write(_ job: ReportJob) throws {
    guard job.kind != .activity else {
      return try job.writeWhole { content, _, write in
        ReportJSON.activityReport(content.activity, write: write)
      }
    }
    try job.writeStreamed { sink in try Self.streamMeals(job, to: sink) }
  }

  /// Streams the meal diary, and for both reports the activity report after it.
  ///
  /// JSON names the offsets before the days, so they are read in a pass of their own first, in
  /// the same read transaction.
  private static func streamMeals(_ job: ReportJob, to sink: ReportSink) throws {
    let reader = job.reader
    let kind = job.kind
    let json = ReportJSON()
    let offsets = try ReportAggregator.offsets(from: reader, zone: job.context.zone)
    if kind == .both {
      var object = JSONObjectWriter()
      object.add("from", reader.range.from.description)
      object.add("to", reader.range.to.description)
      object.addRaw("meals", "\n")
      sink.write(String(object.result.dropLast()))
    }
    sink.write(json.mealsOpening(range: reader.range, settings: reader.settings, offsets: offsets))
    let request = ReportAggregator.Request(
      meals: true, activities: kind == .both ? try job.store.activities() : nil,
      grouping: job.request.grouping)
    var days = 0
    let streamed = try ReportAggregator.stream(request, from: reader, zone: job.context.zone) {
      day in
      let separator = ReportJSON.dayListSeparator(before: days)
      days += 1
      sink.write { text in
        text.append(separator)
        json.day(day, into: &text)
      }
    }
    sink.write { text in
      text.append(ReportJSON.dayListEnd(count: days))
      text.append(json.mealsClosing(streamed.summary, settings: streamed.settings))
      if kind == .both, streamed.activity != nil { text.append(",\"activity\":\n") }
    }
    if kind == .both {
      if let activity = streamed.activity {
        json.activity(activity) { piece in sink.write { $0.append(piece) } }
      }
      sink.write { $0.append("}") }
    }
    sink.write { $0.append("\n") }
  }
}
