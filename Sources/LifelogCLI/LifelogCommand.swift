@preconcurrency import Glibc
import LifelogCore
import LifelogSQLite
import LifelogServer
import LifelogSync

/// The `lifelog` command: finds the subcommand, parses its arguments, runs it, and turns any error
/// into a message on standard error and a sysexits code (docs/design.md §6).
///
/// The only place that prints errors or decides exit codes.
public enum LifelogCommand {
  /// The version printed by `--version` and recorded in remotes.
  public static let version = LifelogVersion.current

  static let configuration = CommandConfiguration(
    commandName: "lifelog",
    abstract: "Log meals and activities from the command line.",
    discussion:
      "Keeps a local SQLite log; every command takes --db PATH (or LIFELOG_DB) to use another log.",
    options: [OptionSpec(["--version"], help: "Show the version.")],
    subcommands: [
      Add.self, List.self, Edit.self, Delete.self, Restore.self, ActivityGroup.self,
      Show.self, Again.self, Undo.self, Settings.self, Due.self, Remind.self, TimerGroup.self,
      RemoteGroup.self, Sync.self, Status.self, Check.self, ReportGroup.self, Import.self,
      Export.self, Serve.self,
      Shell.self, Completion.self, Help.self, CompleteWords.self, ManualPageCommand.self,
    ],
    usesDatabase: true)

  /// Runs one command line (without the program name) and returns its exit code.
  public static func run(_ arguments: [String], in context: Context) -> Int32 {
    defer {
      context.closeStore()
      context.output.flush()
      context.errors.flush()
    }
    var path: [String] = []
    do {
      try dispatch(arguments[...], path: &path, context: context)
      return ExitCode.success
    } catch {
      return present(error, path: path, context: context)
    }
  }

  private static func dispatch(
    _ arguments: ArraySlice<String>, path: inout [String], context: Context
  ) throws {
    var rest = arguments
    // Options before the command name: --db, --version, --help.
    while let first = rest.first, first.hasPrefix("-") {
      if first == "--version" {
        context.output.write("lifelog \(version)\n")
        return
      } else if first == "-h" || first == "--help" {
        context.output.write(HelpFormatter.help(for: configuration, path: []))
        return
      } else if first == "--db", rest.count >= 2 {
        context.databasePathOverride = rest[rest.startIndex + 1]
        rest = rest.dropFirst(2)
      } else if first == "--db" {
        throw UsageError("Missing value for '--db <path>'")
      } else if first.hasPrefix("--db=") {
        context.databasePathOverride = String(first.dropFirst(5))
        rest = rest.dropFirst()
      } else {
        throw UsageError("Unknown option '\(first)'")
      }
    }
    guard let name = rest.first else {
      // `lifelog` alone: a person at a terminal gets the shell, a script gets the help.
      guard context.inputIsTerminal, context.outputIsTerminal else {
        context.output.write(HelpFormatter.help(for: configuration, path: []))
        return
      }
      path.append(Shell.configuration.commandName)
      try run(Shell.self, arguments: [], path: &path, context: context)
      return
    }
    let command = try find(name, in: configuration)
    path.append(command.configuration.commandName)
    try run(command, arguments: rest.dropFirst(), path: &path, context: context)
  }

  /// Runs `command`, descending into a subcommand group when the next word names one.
  static func run(
    _ command: any Command.Type, arguments: ArraySlice<String>, path: inout [String],
    context: Context
  ) throws {
    let configuration = command.configuration
    if let next = arguments.first, !next.hasPrefix("-"),
      let subcommand = configuration.subcommands.first(where: {
        $0.configuration.commandName == next
      })
    {
      path.append(next)
      try run(subcommand, arguments: arguments.dropFirst(), path: &path, context: context)
      return
    }
    let isHelp = arguments.prefix { $0 != "--" }.contains { $0 == "-h" || $0 == "--help" }
    if isHelp {
      context.output.write(HelpFormatter.help(for: configuration, path: path))
      return
    }
    let parsed = try ParsedArguments(Array(arguments), configuration: configuration)
    if let database = parsed.value("--db") { context.databasePathOverride = database }
    try command.init(parsing: parsed, in: context).run(in: context)
  }

  static func find(
    _ name: String, in configuration: CommandConfiguration
  ) throws -> any Command.Type {
    var names: [String] = []
    for command in configuration.subcommands {
      let commandName = command.configuration.commandName
      if commandName == name { return command }
      if !command.configuration.hidden { names.append(commandName) }
    }
    let hint =
      Suggestions.nearest(to: name, in: names, limit: 1).first.map { "; did you mean '\($0)'?" }
      ?? ""
    throw UsageError("Unknown command '\(name)'\(hint)")
  }

  /// Prints an error the way docs/design.md §6 and STYLE §4 say, and returns its exit code.
  private static func present(_ error: any Error, path: [String], context: Context) -> Int32 {
    context.output.flush()
    // Failures already reported (the lines of a shell script) end with their code alone.
    if let status = error as? ExitStatus { return status.code }
    let (code, message) = describe(error)
    // Messages quote outside text (a server's answer, a file's name): controls are shown escaped.
    context.errors.write("Error: \(TerminalText.visible(message, keepingNewlines: true))\n")
    if error is UsageError {
      let configuration = (try? command(at: path))?.configuration ?? configuration
      context.errors.write("Usage: \(HelpFormatter.usage(for: configuration, path: path))\n")
      let target = (["lifelog"] + path).joined(separator: " ")
      context.errors.write("  See '\(target) --help' for more information.\n")
    }
    return code
  }

  static func describe(_ error: any Error) -> (Int32, String) {
    switch error {
    case let error as UsageError: return (ExitCode.usage, error.message)
    case let error as InputError: return (ExitCode.dataError, error.message)
    case let error as InputFileError: return (ExitCode.noInput, error.description)
    case let error as ConfigurationError: return (ExitCode.configuration, error.description)
    case let error as StoreError:
      switch error {
      case .newerSchema, .notADatabase, .cannotOpen:
        return (ExitCode.configuration, error.description)
      case .busy: return (ExitCode.temporaryFailure, error.description)
      case .sqlite: return (ExitCode.failure, error.description)
      }
    case let error as SyncError:
      switch error {
      case .syncRunning, .keysChanged: return (ExitCode.temporaryFailure, error.description)
      case .upgradeRequired, .encryptionMismatch, .encryptionUnavailable:
        return (ExitCode.configuration, error.description)
      case .noSuchRemote: return (ExitCode.dataError, error.description)
      case .authenticationRefused, .passwordRefused, .wrongKey:
        return (ExitCode.authentication, error.description)
      default: return (ExitCode.unavailable, error.description)
      }
    case let error as ServerStoreError:
      if case .cannotConnect = error { return (ExitCode.unavailable, error.description) }
      return (ExitCode.configuration, error.description)
    case let error as ListenerError:
      return (ExitCode.unavailable, "Cannot serve: \(error.message)")
    case let error as TimerError: return (ExitCode.unavailable, error.description)
    case let error as PDFError:
      return (error.isUnavailable ? ExitCode.unavailable : ExitCode.failure, error.description)
    case let error as SQLiteError:
      return (error.isBusy ? ExitCode.temporaryFailure : ExitCode.failure, error.description)
    default: return (ExitCode.failure, String(describing: error))
    }
  }

  private static func command(at path: [String]) throws -> any Command.Type {
    var configuration = configuration
    var found: (any Command.Type)?
    for name in path {
      let command = try find(name, in: configuration)
      found = command
      configuration = command.configuration
    }
    guard let found else { throw UsageError("") }
    return found
  }
}

/// Ends a command with `code` when what went wrong has already been printed.
struct ExitStatus: Error {
  let code: Int32
}

/// The exit codes of docs/design.md §6 (from sysexits.h).
public enum ExitCode {
  public static let success: Int32 = 0
  public static let failure: Int32 = 1
  public static let usage: Int32 = 64
  public static let dataError: Int32 = 65
  public static let noInput: Int32 = 66
  public static let unavailable: Int32 = 69
  public static let temporaryFailure: Int32 = 75
  public static let authentication: Int32 = 77
  public static let configuration: Int32 = 78
}
