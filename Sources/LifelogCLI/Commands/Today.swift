import LifelogCore

extension LifelogCommand {
  /// `lifelog today`: every entry of today, as `lifelog list today` lists them.
  struct Today: Command {
    static let configuration = CommandConfiguration(
      commandName: "today",
      abstract: "List today's entries (as 'lifelog list today').",
      options: List.configuration.options.filter {
        ![EntryTimeRange.from.key, EntryTimeRange.to.key].contains($0.key)
      },
      examples: ["lifelog today", "lifelog today --activity snack --format json"])

    let list: List

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      list = try List(parsing: arguments, in: context, day: "today")
    }

    func run(in context: Context) throws { try list.run(in: context) }
  }
}
