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
        range (--from inclusive, --to exclusive; a bare date means that day's midnight). A day
        (today, yesterday, mon, 2026-12-01) lists every entry of that day. JSON and CSV that stop
        at --limit say so on standard error.
        """,
      arguments: [day],
      options: [
        EntryTimeRange.from, EntryTimeRange.to, activity, limit, deleted, format.spec,
      ],
      examples: [
        "lifelog list",
        "lifelog list today",
        "lifelog list --from yesterday --activity snack",
        "lifelog list --from 2026-11-01 --to 2026-12-01 --format csv > november.csv",
      ])

    static let day = ArgumentSpec(
      "day", "Every entry of this day: today, yesterday, mon, 2026-12-01.", .optional)
    static let activity = OptionSpec(
      ["--activity"], value: "name", help: "Only entries of this activity.")
    static let limit = OptionSpec(
      ["--limit"], value: "n", help: "Show the last n entries.",
      default: "\(defaultLimit), or all with --from/--to")
    static let deleted = OptionSpec(
      ["--deleted"], help: "List deleted entries instead (to find ids for 'restore').")
    static let format = ChoiceOption.format(OutputFormat.allCases)

    let from: LoggedTime?
    let to: LoggedTime?
    let activityName: String?
    let limit: Int?
    let deleted: Bool
    let format: OutputFormat

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      try self.init(parsing: arguments, in: context, day: nil)
    }

    /// - Parameter day: the day to list when a command other than `list` names it (`today`).
    init(parsing arguments: ParsedArguments, in context: Context, day: String?) throws {
      let day =
        try day ?? arguments.checkedPositionals(for: Self.configuration).value(Self.day)
      format = try arguments.choice(Self.format) ?? .table
      if let day {
        guard arguments.valueIfDeclared(EntryTimeRange.from) == nil,
          arguments.valueIfDeclared(EntryTimeRange.to) == nil
        else {
          throw UsageError("Give either a day or --from/--to, not both")
        }
        let date: CivilDate
        do {
          date = try context.timeParser.parseDay(day)
        } catch {
          throw UsageError(error.message)  // a word after `list` that is no day: a usage slip
        }
        let parser = context.timeParser
        (from, to) = (
          try parser.parseBoundary(date.description),
          try parser.parseBoundary(date.adding(days: 1).description)
        )
      } else {
        (from, to) = try arguments.timeRange(parser: context.timeParser)
      }
      activityName = arguments.value(Self.activity)
      deleted = arguments.flag(Self.deleted)
      if let text = arguments.value(Self.limit) {
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
        if entries.contains(where: { ($0.note?.count ?? 0) > EntryPresenter.tableNoteLength }) {
          output.write("Long notes are cut; 'lifelog show ID' shows one in full.\n")
        }
      case .json:
        var first = true
        var count = 0
        output.write("[")
        try store.forEachEntry(query) { entry in
          output.write((first ? "\n" : ",\n") + presenter.json(entry))
          first = false
          count += 1
        }
        output.write(first ? "]\n" : "\n]\n")
        try noteIfCut(count, query: query, store: store, context: context)
      case .csv:
        var count = 0
        output.write(CSVText.row(EntryPresenter.csvHeader))
        try store.forEachEntry(query) {
          output.write(presenter.csv($0))
          count += 1
        }
        try noteIfCut(count, query: query, store: store, context: context)
      }
    }

    /// Says on standard error when JSON or CSV stopped at `--limit` with more entries left, so a
    /// script reading it never takes the last 20 for everything.
    private func noteIfCut(
      _ count: Int, query: EntryQuery, store: LogStore, context: Context
    ) throws {
      guard let limit, count == limit else { return }
      var wider = query
      wider.limit = limit + 1
      guard try store.entries(wider).count > limit else { return }
      context.errors.write(
        "Note: stopped at --limit \(limit) (the newest \(limit) entries); pass --limit N, "
          + "--from/--to or a day for more\n")
    }
  }
}

/// `--from` (inclusive) and `--to` (exclusive), each a time or a day (its midnight), for the
/// commands that select entries by time (`list`, `export`).
enum EntryTimeRange {
  static let from = OptionSpec(
    ["--from"], value: "time", help: "Only entries at or after this time or day.")
  static let to = OptionSpec(["--to"], value: "time", help: "Only entries before this time or day.")
}

extension ParsedArguments {
  /// The range ``EntryTimeRange``'s options give.
  ///
  /// - Throws: ``InputError`` for an unreadable time or a `--to` that is not after `--from`.
  func timeRange(parser: TimeParser) throws -> (from: LoggedTime?, to: LoggedTime?) {
    let from = try value(EntryTimeRange.from).map(parser.parseBoundary)
    let to = try value(EntryTimeRange.to).map(parser.parseBoundary)
    if let from, let to, to.instant <= from.instant {
      throw InputError(
        "--to (\(to.iso8601)) is not after --from (\(from.iso8601)); swap them or widen the range")
    }
    return (from, to)
  }
}
