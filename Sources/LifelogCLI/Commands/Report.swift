import LifelogCore

extension LifelogCommand {
  /// `lifelog report`: alone, both reports for the last seven days, compact.
  struct ReportGroup: Command {
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

    let request: ReportRequest

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      request = try ReportRequest(
        arguments, kind: .both, configuration: Self.configuration, context: context)
    }

    func run(in context: Context) throws { try request.run(in: context) }
  }

  /// `lifelog report meals`: the meal diary.
  struct ReportMeals: Command {
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

    let request: ReportRequest

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      request = try ReportRequest(
        arguments, kind: .meals, configuration: Self.configuration, context: context)
    }

    func run(in context: Context) throws { try request.run(in: context) }
  }

  /// `lifelog report activity`: totals per activity and period, and sleep per night.
  struct ReportActivity: Command {
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

    let request: ReportRequest

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      request = try ReportRequest(
        arguments, kind: .activity, configuration: Self.configuration, context: context)
    }

    func run(in context: Context) throws { try request.run(in: context) }
  }
}
