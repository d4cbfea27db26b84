/// Everything lifelog knows about one command: its name, help text, and the arguments and options
/// it takes.
///
/// Parsing and help both read it, so they cannot disagree.
struct CommandConfiguration: Sendable {
  let commandName: String
  /// One sentence ending in a period, shown in the parent's command list.
  let abstract: String
  let discussion: String?
  let arguments: [ArgumentSpec]
  let options: [OptionSpec]
  let examples: [String]
  /// Nested commands (`activity add`); empty for a leaf command.
  let subcommands: [any Command.Type]
  /// Whether the command reads or writes the log, and so takes `--db`.
  let usesDatabase: Bool
  /// An internal command (`__complete`): runs, but help, completion and the manual leave it out.
  let hidden: Bool

  init(
    commandName: String, abstract: String, discussion: String? = nil,
    arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], examples: [String] = [],
    subcommands: [any Command.Type] = [], usesDatabase: Bool = true, hidden: Bool = false
  ) {
    self.commandName = commandName
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.examples = examples
    self.subcommands = subcommands
    self.usesDatabase = usesDatabase
    self.hidden = hidden
  }

  /// The subcommands people may see: help, completion and the manual list these.
  var visibleSubcommands: [any Command.Type] { subcommands.filter { !$0.configuration.hidden } }

  /// The options as parsed and listed in help: the command's own, then `--db`, then `--help`.
  var allOptions: [OptionSpec] {
    options + (usesDatabase ? [OptionSpec.database] : []) + [OptionSpec.help]
  }
}

/// A positional argument.
struct ArgumentSpec: Sendable {
  enum Arity: Sendable { case required, optional, oneOrMore, zeroOrMore }
  let name: String
  let help: String
  let arity: Arity
  /// What Tab offers for it; by default guessed from the name (`activity`, `id`, `file`, ...).
  let completion: ValueCompletion

  init(
    _ name: String, _ help: String, _ arity: Arity = .required, completes: ValueCompletion? = nil
  ) {
    self.name = name
    self.help = help
    self.arity = arity
    self.completion = completes ?? ValueCompletion(argumentNamed: name)
  }

  /// `<activity>`, `[<note>]`, `<id> ...`.
  var usage: String {
    switch arity {
    case .required: "<\(name)>"
    case .optional: "[<\(name)>]"
    case .oneOrMore: "<\(name)> ..."
    case .zeroOrMore: "[<\(name)> ...]"
    }
  }
}

/// A named option: a flag (`--deleted`) or one that takes a value (`--at <time>`).
struct OptionSpec: Sendable {
  let names: [String]
  /// The placeholder for the value; nil for a flag.
  let valueName: String?
  let help: String
  let defaultValue: String?
  let repeatable: Bool
  /// What Tab offers for its value; by default guessed from its names (`--kind`, `<file>`, ...).
  let completion: ValueCompletion

  init(
    _ names: [String], value: String? = nil, help: String, default defaultValue: String? = nil,
    repeatable: Bool = false, completes: ValueCompletion? = nil
  ) {
    self.names = names
    self.valueName = value
    self.help = help
    self.defaultValue = defaultValue
    self.repeatable = repeatable
    self.completion = completes ?? ValueCompletion(option: names, valueName: value)
  }

  /// The long name (`--at`), used as the key for parsed values.
  var key: String { names.first { $0.hasPrefix("--") } ?? names[0] }

  /// `--at <time>`, `-h, --help`.
  var label: String {
    names.joined(separator: ", ") + (valueName.map { " <\($0)>" } ?? "")
  }

  /// `--format <format>`: one of `choices`, the first being the default.
  static func format(_ choices: [String]) -> OptionSpec {
    OptionSpec(
      ["--format"], value: "format", help: "Output: \(spokenList(choices)).",
      default: choices.first, completes: .choices(choices))
  }

  /// `a, b or c`: choices as help and errors list them.
  static func spokenList(_ choices: [String]) -> String {
    Array(choices.dropLast()).joinedText(separator: ", ") + (choices.count > 1 ? " or " : "")
      + (choices.last ?? "")
  }

  static let help = OptionSpec(["-h", "--help"], help: "Show help information.")
  static let database = OptionSpec(
    ["--db"], value: "path",
    help: "The log to use (or LIFELOG_DB).", default: "$XDG_DATA_HOME/lifelog/lifelog.db")
}
