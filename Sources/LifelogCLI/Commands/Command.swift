/// A lifelog command: its configuration (names, help, options) and what it does.
///
/// Each conformer parses its own values in `init(parsing:)`, throwing ``UsageError`` for a command
/// line that does not fit and `InputError` for a value that cannot be accepted, so nothing runs
/// until the whole command line has been read.
protocol Command: CommandWork {
  static var configuration: CommandConfiguration { get }
  init(parsing arguments: ParsedArguments, in context: Context) throws
}

/// The work a command does once its command line is read: shared by the commands that differ
/// only in how they read it (``DelegatingCommand``).
protocol CommandWork: Sendable {
  func run(in context: Context) throws
}

/// A command whose whole work is one value it parses into, a value that other commands share:
/// `delete` and `restore` both flip entries' deleted mark, the three reports run one request, a
/// group alone runs its list.
///
/// The conformer states only how it reads its command line (``work(parsing:in:)``); parsing into
/// the value and running it are written once here.
protocol DelegatingCommand: Command {
  associatedtype Work: CommandWork
  var work: Work { get }
  init(work: Work)
  static func work(parsing arguments: ParsedArguments, in context: Context) throws -> Work
}

extension DelegatingCommand {
  init(parsing arguments: ParsedArguments, in context: Context) throws {
    self.init(work: try Self.work(parsing: arguments, in: context))
  }

  func run(in context: Context) throws { try work.run(in: context) }
}

extension DelegatingCommand where Work: Command {
  /// A group that alone runs one of its subcommands (`remote` is `remote list`) reads the command
  /// line as that subcommand does.
  static func work(parsing arguments: ParsedArguments, in context: Context) throws -> Work {
    try Work(parsing: arguments, in: context)
  }
}
