import LifelogCore

/// Which report to write.
enum ReportKind: String {
  /// `lifelog report` alone: both, compact.
  case both
  case meals
  case activity
}

/// What a renderer of a whole report reads: the reports that were built.
///
/// The meal report is nil for an activity report, and so on. CSV, and JSON with the meal diary,
/// are written a day at a time instead (by their ``ReportRenderer``).
struct ReportContent {
  let kind: ReportKind
  let built: ReportAggregator.Built

  var meals: MealReport? { built.meals }
  var activity: ActivityReport? { built.activity }
  var settings: ReportSettings { built.settings }
  var range: ReportRange { built.range }
  /// The offsets the entries were logged at (the same in both reports).
  var offsets: [LoggedOffset] { built.offsets }
}
