import LifelogCore

/// Which report to write.
enum ReportKind: String {
  /// `lifelog report` alone: both, compact.
  case both
  case meals
  case activity
}

/// What a renderer reads: the reports that were built (the meal report is nil for an activity
/// report in text, Markdown or JSON, and so on) and, for CSV of all kinds, every entry.
struct ReportContent {
  let kind: ReportKind
  let built: ReportAggregator.Built

  var meals: MealReport? { built.meals }
  var activity: ActivityReport? { built.activity }
  var settings: ReportSettings { built.settings }
  var range: ReportRange { built.range }
  /// Per day of the range, its entries oldest first (only CSV of the activity or both reports
  /// asks).
  var entriesByDay: [[Entry]] { built.entriesByDay }
  /// The offsets the entries were logged at (the same in both reports).
  var offsets: [LoggedOffset] { built.offsets }
}
