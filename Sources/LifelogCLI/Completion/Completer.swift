@preconcurrency import Glibc
import LifelogCore
import LifelogSync

/// What Tab may offer at the end of a partly typed command line: the one place that knows it.
///
/// It walks the command configurations the way ``LifelogCommand`` parses (commands, subcommands,
/// options and the values they take), so a new command or option is offered as soon as it is
/// declared; activity names, entry ids and remote names come from the log. The shell's Tab calls
/// it directly; the bash, zsh and fish scripts call it through `lifelog __complete`.
struct Completer {
  /// What to offer.
  enum Candidates: Equatable {
    /// These words (already narrowed to those that start with what was typed).
    case words([String])
    /// File names, which the shell completes itself.
    case files
  }

  /// How many recent entries' ids are offered.
  static let recentEntries = 20

  let context: Context

  /// The candidates for `current`, the word being typed, after `words` (without `lifelog`).
  func candidates(after words: [String], current: String) -> Candidates {
    var position = Position()
    for word in words { position.advance(over: word) }
    if let option = position.pendingOption {
      return offer(option.completion, position: position, current: current)
    }
    if !position.optionsEnded, current.hasPrefix("-") {
      if current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
        let name = String(current[..<equals])
        guard let option = position.option(named: name) else { return .words([]) }
        let typed = String(current[current.index(after: equals)...])
        guard case .words(let values) = offer(option.completion, position: position, current: typed)
        else {
          return .words([])
        }
        return .words(values.map { name + "=" + $0 })
      }
      let names = position.configuration.allOptions.flatMap(\.names)
      return .words(names.filter { $0.hasPrefix(current) })
    }
    var offered: [String] = []
    if position.positionals.isEmpty {
      offered = position.configuration.visibleSubcommands.map { $0.configuration.commandName }
    }
    if position.isRoot { return .words(offered.filter { $0.hasPrefix(current) }) }
    if let argument = position.argument {
      let values = offer(argument.completion, position: position, current: current)
      if values == .files, offered.isEmpty { return .files }
      if case .words(let words) = values { offered += words }
    }
    return .words(offered.filter { $0.hasPrefix(current) })
  }

  /// The values a completion kind offers, narrowed to those starting with `current`.
  private func offer(
    _ completion: ValueCompletion, position: Position, current: String
  ) -> Candidates {
    let values: [String]
    switch completion {
    case .none: values = []
    case .file: return .files
    case .choices(let choices): values = choices
    case .commandName:
      var configuration = LifelogCommand.configuration
      for name in position.positionals {
        guard
          let command = configuration.subcommands.first(where: {
            $0.configuration.commandName == name
          })
        else {
          return .words([])
        }
        configuration = command.configuration
      }
      values = configuration.visibleSubcommands.map { $0.configuration.commandName }
    case .activityName, .entryID, .remoteName:
      values = (try? fromLog(completion, databaseOverride: position.databaseOverride)) ?? []
    }
    return .words(values.filter { $0.hasPrefix(current) })
  }

  /// Activity names, recent entry ids or remote names; nothing when there is no log yet (Tab
  /// must never create one).
  private func fromLog(_ completion: ValueCompletion, databaseOverride: String?) throws -> [String]
  {
    let path = try databaseOverride ?? context.databasePath
    guard access(path, F_OK) == 0 else { return [] }
    let store = try LogStore(path: path, busyTimeoutMilliseconds: 200)
    switch completion {
    case .activityName:
      return try store.activities().filter { !$0.archived }.map(\.name)
    case .entryID(let deleted):
      let recent = try store.entries(EntryQuery(limit: Completer.recentEntries, deleted: deleted))
      // An id from sync may hold control characters: printed, they would act on the terminal
      // (or a line feed would make two candidates), and no one types them.
      return recent.reversed().map(\.shortID).filter { TerminalText.visible($0) == $0 }
    case .remoteName:
      return try SyncStore(log: store).remotes().map(\.name)
    default:
      return []
    }
  }
}

/// Where a walk through the words typed so far has got to.
private struct Position {
  var configuration = LifelogCommand.configuration
  var isRoot = true
  /// The positional arguments given to the command reached.
  var positionals: [String] = []
  /// An option just typed that still waits for its value.
  var pendingOption: OptionSpec?
  var optionsEnded = false
  /// A `--db` typed earlier on the line: names come from that log.
  var databaseOverride: String?

  mutating func advance(over word: String) {
    if let option = pendingOption {
      pendingOption = nil
      if option.key == "--db" { databaseOverride = word }
      return
    }
    if !optionsEnded, word == "--" {
      optionsEnded = true
      return
    }
    if !optionsEnded, word.hasPrefix("-"), word.count > 1, !ParsedArguments.isNumber(word) {
      let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
      let option = self.option(named: name)
      if word.contains("=") {
        if name == "--db" { databaseOverride = String(word.dropFirst(5)) }
      } else if option?.valueName != nil {
        pendingOption = option
      }
      return
    }
    if positionals.isEmpty,
      let command = configuration.subcommands.first(where: { $0.configuration.commandName == word })
    {
      configuration = command.configuration
      isRoot = false
      return
    }
    positionals.append(word)
  }

  func option(named name: String) -> OptionSpec? {
    configuration.allOptions.first { $0.names.contains(name) }
  }

  /// The argument the next positional word fills: the one at its place, or a last one that
  /// takes many.
  var argument: ArgumentSpec? {
    let arguments = configuration.arguments
    if positionals.count < arguments.count { return arguments[positionals.count] }
    guard let last = arguments.last, last.arity == .oneOrMore || last.arity == .zeroOrMore else {
      return nil
    }
    return last
  }
}
