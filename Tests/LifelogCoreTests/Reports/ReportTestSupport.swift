import LifelogCore
import LifelogTestSupport
import Testing

/// The sample log in memory, read for a range, with the reader in Warsaw.
struct SampleReports {
  let store: LogStore
  let zone = SystemTimeZone(identifier: ReportSampleLog.zone)

  init(rows: [ReportSampleLog.Row] = ReportSampleLog.october + ReportSampleLog.march) throws {
    store = try ReportSampleLog.build(at: ":memory:", rows: rows)
  }

  func log(_ from: String, _ to: String, settings: ReportSettings? = nil) throws -> ReportLog {
    let range = try ReportRange(from: try day(from), to: try day(to))
    return try ReportLog.read(
      from: store, range: range, settings: settings ?? store.reportSettings())
  }

  func meals(_ from: String, _ to: String, settings: ReportSettings? = nil) throws -> MealReport {
    MealReport(log: try log(from, to, settings: settings), zone: zone)
  }

  func activity(
    _ from: String, _ to: String, by grouping: Target.Period = .week
  ) throws -> ActivityReport {
    ActivityReport(
      log: try log(from, to), activities: try store.activities(), by: grouping, zone: zone)
  }
}

func day(_ text: String) throws -> CivilDate {
  try TimeParser(now: 0, zone: FixedOffsetZone(seconds: 0)).parseDay(text)
}

func time(_ iso: String) throws -> LoggedTime {
  try ISO8601Time.parse(iso)
}

extension MealReport {
  /// The day of `text` (YYYY-MM-DD).
  func day(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> MealDay {
    try #require(days.first { $0.date.description == text }, sourceLocation: sourceLocation)
  }
}
