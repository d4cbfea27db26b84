/// A lifelog command: its configuration (names, help, options) and what it does.
///
/// Each conformer parses its own values in `init(parsing:)`, throwing ``UsageError`` for a command
/// line that does not fit and `InputError` for a value that cannot be accepted, so nothing runs
/// until the whole command line has been read.
protocol Command: Sendable {
  static var configuration: CommandConfiguration { get }
  init(parsing arguments: ParsedArguments, in context: Context) throws
  func run(in context: Context) throws
}
