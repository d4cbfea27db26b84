import LifelogCore

extension LifelogCommand {
  /// `lifelog report`: alone, both reports for the last seven days, compact.
  struct ReportGroup: ReportCommand {
    static let configuration = CommandConfiguration(
      commandName: "report",
      abstract: "Report meal gaps and activity totals against targets.",
      discussion: """
        'lifelog report' alone shows both reports, compact: a line per day of meals, then activity
        totals. Days run from --from to --to, both inclusive (default: the last 7 days, today
        included) and begin at the dayStartsAt setting, on the clock where each entry was logged.
        """,
      options: ReportRequest.options(grouping: true),
      examples: [
        "lifelog report",
        "lifelog report meals --from 2026-11-01 --to 2026-11-30 --format md --output november.md",
        "lifelog report activity --by month --from 2026-01-01",
      ],
      subcommands: [ReportMeals.self, ReportActivity.self])

    static let kind = ReportKind.both

    let work: ReportRequest
  }

  /// `lifelog report meals`: the meal diary.
  struct ReportMeals: ReportCommand {
    static let configuration = CommandConfiguration(
      commandName: "meals",
      abstract: "Show every meal by day, the gaps between them, and a summary.",
      discussion: """
        Each day lists its meals at the time they were logged, with the gap since the meal before;
        gaps longer than the mealGapHours setting are flagged with '!', gaps shorter than
        mealGapMinHours with '<' (HTML and Markdown grade each: a bit, or far when an hour or more
        outside). The overnight gap (from the day before's last meal) is shown apart and never
        flagged. The summary gives meals per day,
        the median and longest gap, the typical first and last meal, and the days with no flagged
        gap.
        """,
      options: ReportRequest.options(grouping: false),
      examples: [
        "lifelog report meals",
        "lifelog report meals --from mon",
        "lifelog report meals --from 2026-11-01 --to 2026-11-30 --format csv > november.csv",
      ])

    static let kind = ReportKind.meals

    let work: ReportRequest
  }

  /// `lifelog report activity`: totals per activity and period, and sleep per night.
  struct ReportActivity: ReportCommand {
    static let configuration = CommandConfiguration(
      commandName: "activity",
      abstract: "Show activity totals per period against their targets, and sleep per night.",
      discussion: """
        For each activity: how many entries, their total duration and quantity, and the share of
        its target reached (a target is spread evenly over its days, so a week cut short by the
        range expects less). Sleep is shown per night; a night belongs to the day it begins in.
        """,
      options: ReportRequest.options(grouping: true),
      examples: [
        "lifelog report activity",
        "lifelog report activity --by day --from yesterday",
        "lifelog report activity --by month --from 2026-01-01 --to 2026-06-30 --format json",
      ])

    static let kind = ReportKind.activity

    let work: ReportRequest
  }
}

/// `report` and its subcommands: each reads the same options into a ``ReportRequest`` of its own
/// kind.
protocol ReportCommand: DelegatingCommand where Work == ReportRequest {
  static var kind: ReportKind { get }
}

extension ReportCommand {
  static func work(parsing arguments: ParsedArguments, in context: Context) throws -> ReportRequest
  {
    try ReportRequest(arguments, kind: kind, configuration: configuration, context: context)
  }
}
