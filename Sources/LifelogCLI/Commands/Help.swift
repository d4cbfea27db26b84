extension LifelogCommand {
  /// `lifelog help [<command> ...]`: the same text as `--help`.
  struct Help: Command {
    static let configuration = CommandConfiguration(
      commandName: "help",
      abstract: "Show help for a command.",
      arguments: [command],
      examples: ["lifelog help add", "lifelog help activity add"],
      usesDatabase: false)

    static let command = ArgumentSpec(
      "command", "The command, e.g. 'add' or 'activity add'.", .zeroOrMore)

    let path: [String]

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      path = try arguments.checkedPositionals(for: Self.configuration)[Self.command]
    }

    func run(in context: Context) throws {
      var configuration = LifelogCommand.configuration
      for name in path {
        configuration = try LifelogCommand.find(name, in: configuration).configuration
      }
      context.output.write(HelpFormatter.help(for: configuration, path: path))
    }
  }
}
