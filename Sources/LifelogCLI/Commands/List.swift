import LifelogCore

extension LifelogCommand {
  /// `lifelog list`: the most recent entries, oldest first, like `tail`.
  struct List: Command {
    static let defaultLimit = 20

    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List entries, oldest first.",
      discussion: """
        Without --from or --to it shows the last \(defaultLimit) entries; with them, every entry in the
        range (--from inclusive, --to exclusive; a bare date means that day's midnight).
        """,
      options: [
        OptionSpec(["--from"], value: "time", help: "Only entries at or after this time or day."),
        OptionSpec(["--to"], value: "time", help: "Only entries before this time or day."),
        OptionSpec(["--activity"], value: "name", help: "Only entries of this activity."),
        OptionSpec(
          ["--limit"], value: "n", help: "Show the last n entries.",
          default: "\(defaultLimit), or all with --from/--to"),
        OptionSpec(
          ["--deleted"], help: "List deleted entries instead (to find ids for 'restore')."),
        OptionSpec.format(["table", "json", "csv"]),
      ],
      examples: [
        "lifelog list",
        "lifelog list --from yesterday --activity snack",
        "lifelog list --from 2026-11-01 --to 2026-12-01 --format csv > november.csv",
      ])

    let from: LoggedTime?
    let to: LoggedTime?
    let activityName: String?
    let limit: Int?
    let deleted: Bool
    let format: OutputFormat

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      format = try OutputFormat(parsing: arguments.choice("--format"))
      (from, to) = try arguments.timeRange(parser: context.timeParser)
      activityName = arguments.value("--activity")
      deleted = arguments.flag("--deleted")
      if let text = arguments.value("--limit") {
        guard let value = Int(text), value > 0 else {
          throw InputError("--limit must be a whole number of 1 or more, not '\(text)'")
        }
        limit = value
      } else {
        limit = from == nil && to == nil ? List.defaultLimit : nil
      }
    }

    func run(in context: Context) throws {
      let store = try context.store
      let activityID = try activityName.map { try store.requireActivity(named: $0).id }
      let query = EntryQuery(
        from: from?.instant, to: to?.instant, activityID: activityID, limit: limit, deleted: deleted
      )
      let presenter = EntryPresenter(zone: context.zone)
      let output = context.output
      switch format {
      case .table:
        let entries = try store.entries(query)
        guard !entries.isEmpty else {
          output.write(
            deleted
              ? "No deleted entries.\n" : "No entries; add one with 'lifelog add breakfast'.\n")
          return
        }
        output.write(
          presenter.table(entries).render(width: context.terminalWidth, bold: context.usesColor))
      case .json:
        var first = true
        output.write("[")
        try store.forEachEntry(query) { entry in
          output.write((first ? "\n" : ",\n") + presenter.json(entry))
          first = false
        }
        output.write(first ? "]\n" : "\n]\n")
      case .csv:
        output.write(CSVText.row(EntryPresenter.csvHeader))
        try store.forEachEntry(query) { output.write(presenter.csv($0)) }
      }
    }
  }
}

extension ParsedArguments {
  /// `--from` (inclusive) and `--to` (exclusive), each a time or a day (its midnight), for the
  /// commands that select entries by time (`list`, `export`).
  ///
  /// - Throws: ``InputError`` for an unreadable time or a `--to` that is not after `--from`.
  func timeRange(parser: TimeParser) throws -> (from: LoggedTime?, to: LoggedTime?) {
    let from = try value("--from").map(parser.parseBoundary)
    let to = try value("--to").map(parser.parseBoundary)
    if let from, let to, to.instant <= from.instant {
      throw InputError(
        "--to (\(to.iso8601)) is not after --from (\(from.iso8601)); swap them or widen the range")
    }
    return (from, to)
  }
}
