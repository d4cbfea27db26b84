import LifelogCore

/// What Tab may offer for the value of an argument or option.
///
/// Declared with the argument or option (or guessed from its name), so the shell, the completion
/// scripts and any new command agree without a list kept somewhere else.
enum ValueCompletion: Sendable, Equatable {
  /// Free text: nothing to offer.
  case none
  /// One of these words.
  case choices([String])
  /// An activity's name, from the log.
  case activityName
  /// A recent entry's short id, from the log (deleted entries for `restore`).
  case entryID(deleted: Bool)
  /// A remote's name, from the log.
  case remoteName
  /// A command's name (`lifelog help <command> ...`).
  case commandName
  /// A file name, completed by the shell itself.
  case file

  /// The guess for a positional argument called `name`.
  init(argumentNamed name: String) {
    switch name {
    case "activity": self = .activityName
    case "id": self = .entryID(deleted: false)
    case "remote": self = .remoteName
    case "command": self = .commandName
    case "file", "path": self = .file
    default: self = .none
    }
  }

  /// The guess for an option with these names and value placeholder.
  init(option names: [String], valueName: String?) {
    switch valueName {
    case nil: self = .none
    case "kind": self = .choices(ActivityKind.allCases.map(\.rawValue))
    case "file", "path": self = .file
    default: self = names.contains("--activity") ? .activityName : .none
    }
  }
}
