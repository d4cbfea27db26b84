@preconcurrency import Glibc
import LifelogCore

/// What a command runs against: the environment, the clock, the time zone, where output goes, and
/// the log (opened only when a command first needs it, so `--help` never touches the database).
public final class Context {
  public let environment: [String: String]
  public let output: any TextOutput
  public let errors: any TextOutput
  /// Whether standard output is a terminal (tables get colour and fit the width).
  public let outputIsTerminal: Bool
  /// Whether standard input is a terminal (`lifelog` alone then starts the shell).
  public let inputIsTerminal: Bool
  /// The current instant, Unix seconds (`LIFELOG_NOW` overrides it for tests and demos).
  public let now: Int64
  public let zone: any TimeZoneRules
  let zoneName: String
  /// Asks questions (a passphrase) when standard input is a terminal; nil otherwise, and in tests.
  public var prompt: TerminalPrompt?
  /// Whether this command is the whole process (`lifelog sync` from cron), so a watchdog may end
  /// it; false for a line of `lifelog shell` and for commands run in process, which only an error
  /// may end.
  public var isWholeProcess = false
  var databasePathOverride: String?
  /// `lifelog --verbose`: an error also shows SQLite's own report.
  var verbose = false
  private var openedStore: LogStore?

  public init(
    environment: [String: String], output: any TextOutput, errors: any TextOutput,
    outputIsTerminal: Bool, now: Int64, zone: any TimeZoneRules, zoneName: String,
    inputIsTerminal: Bool = false
  ) {
    self.environment = environment
    self.output = output
    self.errors = errors
    self.outputIsTerminal = outputIsTerminal
    self.inputIsTerminal = inputIsTerminal
    self.now = now
    self.zone = zone
    self.zoneName = zoneName
  }

  /// Colour only on a terminal, and never when `NO_COLOR` is set (https://no-color.org).
  var usesColor: Bool {
    outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
  }

  var timeParser: TimeParser { TimeParser(now: now, zone: zone, zoneName: zoneName) }

  /// The database path: `--db`, then `LIFELOG_DB`, then `$XDG_DATA_HOME/lifelog/lifelog.db`
  /// (falling back to `~/.local/share`).
  var databasePath: String {
    get throws {
      if let path = databasePathOverride ?? environment["LIFELOG_DB"], !path.isEmpty { return path }
      if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
        return data + "/lifelog/lifelog.db"
      }
      guard let home = environment["HOME"], !home.isEmpty else {
        throw ConfigurationError(
          "Cannot find the log: HOME is not set; set LIFELOG_DB or pass --db PATH")
      }
      return home + "/.local/share/lifelog/lifelog.db"
    }
  }

  /// The log, opened (and created or migrated) on first use.
  var store: LogStore {
    get throws {
      if let openedStore { return openedStore }
      // LIFELOG_BUSY_TIMEOUT_MS is for tests that need a lock to time out quickly.
      let timeout = environment["LIFELOG_BUSY_TIMEOUT_MS"].flatMap(Int32.init) ?? 10_000
      let store = try LogStore(path: try databasePath, busyTimeoutMilliseconds: timeout)
      if store.isNewLog, let names = BuiltInActivityNames.forLocale(environment) {
        try store.nameBuiltInActivities(names)
      }
      openedStore = store
      return store
    }
  }

  /// Closes the log so its file is released before the process or the next shell line goes on.
  func closeStore() { openedStore = nil }

  /// A fresh context for one line of `lifelog shell`: the same streams and log, the clock read
  /// again (a session lasts hours; `LIFELOG_NOW` still fixes it), nothing left from the line before.
  func forShellLine() -> Context {
    let context = Context(
      environment: environment, output: output, errors: errors, outputIsTerminal: outputIsTerminal,
      now: (try? ProcessEnvironment.now(environment)) ?? now, zone: zone, zoneName: zoneName,
      inputIsTerminal: inputIsTerminal)
    context.databasePathOverride = databasePathOverride
    context.verbose = verbose
    context.prompt = prompt
    return context
  }

  /// The terminal's width in columns, when output is a terminal.
  var terminalWidth: Int? {
    guard outputIsTerminal else { return nil }
    if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 20 { return columns }
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 else { return nil }
    return Int(size.ws_col)
  }
}
