import LifelogCore

/// Which report to write.
enum ReportKind: String {
  /// `lifelog report` alone: both, compact.
  case both
  case meals
  case activity
}

/// What a renderer reads: the reports that were built (the meal report is nil for an activity
/// report in text, Markdown or JSON, and so on) and the entries they came from.
struct ReportContent {
  let kind: ReportKind
  let log: ReportLog
  let meals: MealReport?
  let activity: ActivityReport?

  var settings: ReportSettings { log.settings }
  var range: ReportRange { log.range }
  /// The offsets the entries were logged at (the same in both reports).
  var offsets: [LoggedOffset] { meals?.offsets ?? activity?.offsets ?? [] }
}
