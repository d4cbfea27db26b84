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
    options: [
      OptionSpec(["--version"], help: "Show the version."),
      OptionSpec(
        ["--verbose"], help: "With an error, also show SQLite's own report."),
    ],
    subcommands: [
      Add.self, List.self, Today.self, Edit.self, Delete.self, Restore.self, ActivityGroup.self,
      Show.self, Again.self, Undo.self, Settings.self, Due.self, Remind.self, TimerGroup.self,
      RemoteGroup.self, Sync.self, Status.self, Check.self, Recover.self, ReportGroup.self,
      Import.self, Export.self, Serve.self, Pair.self, Share.self,
      Shell.self, Completion.self, Help.self, CompleteWords.self, ManualPageCommand.self,
    ],
    usesDatabase: true)

  /// The command `lifelog name` runs, found by its name alone, or nil for no such command.
  ///
  /// A command line finds its command here, so it builds only that command's configuration (its
  /// help, options and examples), not those of every command listed before it. Each name is the
  /// command's own `commandName` (`CommandLookupTests` checks every one).
  static func command(named name: String) -> (any Command.Type)? {
    switch name {
    case "add": Add.self
    case "list": List.self
    case "today": Today.self
    case "edit": Edit.self
    case "delete": Delete.self
    case "restore": Restore.self
    case "activity": ActivityGroup.self
    case "show": Show.self
    case "again": Again.self
    case "undo": Undo.self
    case "settings": Settings.self
    case "due": Due.self
    case "remind": Remind.self
    case "timer": TimerGroup.self
    case "remote": RemoteGroup.self
    case "sync": Sync.self
    case "status": Status.self
    case "check": Check.self
    case "recover": Recover.self
    case "report": ReportGroup.self
    case "import": Import.self
    case "export": Export.self
    case "serve": Serve.self
    case "pair": Pair.self
    case "share": Share.self
    case "shell": Shell.self
    case "completion": Completion.self
    case "help": Help.self
    case "__complete": CompleteWords.self
    case "__manpage": ManualPageCommand.self
    default: nil
    }
  }

  /// Runs one command line (without the program name) and returns its exit code.
  public static func run(_ arguments: [String], in context: Context) -> Int32 {
    defer {
      context.closeStore()
      context.output.flush()
      context.errors.flush()
    }
    var path: [String] = []
    let commitsBefore = CommitProgress.commitCount
    do {
      try dispatch(arguments[...], path: &path, context: context)
      context.output.flush()
      if let failure = context.output.writeFailure {
        throw OutputWriteError(path: nil, code: failure)
      }
      return ExitCode.success
    } catch var error as OutputWriteError {
      error.changeSaved = CommitProgress.commitCount > commitsBefore
      return present(error, path: path, context: context)
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
      if first == "--verbose" {
        context.verbose = true
        rest = rest.dropFirst()
      } else if first == "--version" {
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
    let command = try command(named: name) ?? find(name, in: configuration)
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
    if configuration.usesDatabase, let database = parsed.value(OptionSpec.database) {
      context.databasePathOverride = database
    }
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

  /// Prints an error as `Error: <what was wrong>; <what to do>` (docs/design.md §6), a usage
  /// error with its usage line, and returns the error's exit code (docs/cli.md).
  private static func present(_ error: any Error, path: [String], context: Context) -> Int32 {
    context.output.flush()
    // Failures already reported (the lines of a shell script) end with their code alone.
    if let status = error as? ExitStatus { return status.code }
    var (code, message, detail) = explain(error, context: context)
    if let progress = error as? SyncProgressError {
      (code, message, detail) = explain(progress.cause, context: context)
      message = SyncProgressError.withoutNothingChanged(message) + "; " + progress.done
    }
    // Messages quote outside text (a server's answer, a file's name): controls are shown escaped.
    context.errors.write("Error: \(TerminalText.visible(message, keepingNewlines: true))\n")
    if context.verbose, let detail {
      context.errors.write("  \(TerminalText.visible(detail, keepingNewlines: true))\n")
    }
    if error is UsageError {
      let configuration = (try? command(at: path))?.configuration ?? configuration
      context.errors.write("Usage: \(HelpFormatter.usage(for: configuration, path: path))\n")
      let target = (["lifelog"] + path).joined(separator: " ")
      context.errors.write("  See '\(target) --help' for more information.\n")
    }
    return code
  }

  /// The exit code and message for `error`, and SQLite's report for `--verbose` when it has one.
  private static func explain(
    _ error: any Error, context: Context
  ) -> (Int32, String, String?) {
    if let report = StorageFailureReport.make(error, context: context) {
      return (report.code, report.message, report.detail)
    }
    let (code, message) = describe(error)
    if let cause = unexpectedSQLiteError(error) {
      return (
        code,
        "The log's database reported an unexpected error; nothing was changed. Run the command "
          + "again with 'lifelog --verbose' to see it, and report it",
        cause.description
      )
    }
    return (code, message, nil)
  }

  /// The SQLite error behind `error` when it is one no other message explains.
  private static func unexpectedSQLiteError(_ error: any Error) -> SQLiteError? {
    switch error {
    case StoreError.sqlite(let cause): return cause
    case let cause as SQLiteError where !cause.isBusy: return cause
    default: return nil
    }
  }

  static func describe(_ error: any Error) -> (Int32, String) {
    switch error {
    case let error as UsageError: return (ExitCode.usage, error.message)
    case let error as InputError: return (ExitCode.dataError, error.message)
    case let error as InputFileError:
      switch error {
      case .readFailed, .openFailed: return (ExitCode.ioError, error.description)
      case .missing, .unreadable: return (ExitCode.noInput, error.description)
      }
    case let error as OutputWriteError: return (error.exitCode, error.description)
    case let error as ConfigurationError: return (ExitCode.configuration, error.description)
    case let error as StoreError:
      switch error {
      case .newerSchema, .notADatabase, .cannotOpen:
        return (ExitCode.configuration, error.description)
      case .storage, .commitFailed: return (ExitCode.ioError, error.description)
      case .busy: return (ExitCode.temporaryFailure, error.description)
      case .sqlite: return (ExitCode.failure, error.description)
      }
    case let error as SyncError:
      switch error {
      case .syncRunning, .keysChanged: return (ExitCode.temporaryFailure, error.description)
      case .lockFileUnusable:
        return (error.isDiskFailure ? ExitCode.ioError : ExitCode.cannotCreate, error.description)
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
    case let error as SpreadsheetError: return (error.exitCode, error.description)
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
  /// A file that cannot be created or opened for writing (`EX_CANTCREAT`).
  public static let cannotCreate: Int32 = 73
  /// The disk failed: an I/O error, a full disk, an output that cannot be written (`EX_IOERR`).
  public static let ioError: Int32 = 74
  public static let temporaryFailure: Int32 = 75
  public static let authentication: Int32 = 77
  public static let configuration: Int32 = 78
}
