@preconcurrency import Glibc
import LifelogCore

/// What a command runs against: the environment, the clock, the time zone, where output goes, and
/// the log (opened only when a command first needs it, so `--help` never touches the database).
public final class Context {
  /// The variables this context was made with; nil when they are the process's own, which
  /// ``variable(_:)`` reads one name at a time.
  private let givenEnvironment: [String: String]?
  /// Every environment variable, for the commands that pass them on.
  ///
  /// A child process's environment, a locale, a search path. Made on first use: building the whole
  /// dictionary costs a start-up more than the few names most commands read.
  public private(set) lazy var environment: [String: String] =
    givenEnvironment ?? ProcessEnvironment.read()
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

  public convenience init(
    environment: [String: String], output: any TextOutput, errors: any TextOutput,
    outputIsTerminal: Bool, now: Int64, zone: any TimeZoneRules, zoneName: String,
    inputIsTerminal: Bool = false
  ) {
    self.init(
      givenEnvironment: environment, output: output, errors: errors,
      outputIsTerminal: outputIsTerminal, now: now, zone: zone, zoneName: zoneName,
      inputIsTerminal: inputIsTerminal)
  }

  /// A context whose environment is the process's own (nil `givenEnvironment`) or the one given.
  init(
    givenEnvironment: [String: String]?, output: any TextOutput, errors: any TextOutput,
    outputIsTerminal: Bool, now: Int64, zone: any TimeZoneRules, zoneName: String,
    inputIsTerminal: Bool
  ) {
    self.givenEnvironment = givenEnvironment
    self.output = output
    self.errors = errors
    self.outputIsTerminal = outputIsTerminal
    self.inputIsTerminal = inputIsTerminal
    self.now = now
    self.zone = zone
    self.zoneName = zoneName
  }

  /// The value of the environment variable `name`, or nil when it is not set.
  public func variable(_ name: String) -> String? {
    guard let givenEnvironment else { return ProcessEnvironment.value(named: name) }
    return givenEnvironment[name]
  }

  /// Colour only on a terminal, and never when `NO_COLOR` is set (https://no-color.org).
  var usesColor: Bool {
    outputIsTerminal && (variable("NO_COLOR") ?? "").isEmpty && variable("TERM") != "dumb"
  }

  var timeParser: TimeParser { TimeParser(now: now, zone: zone, zoneName: zoneName) }

  /// The database path: `--db`, then `LIFELOG_DB`, then `$XDG_DATA_HOME/lifelog/lifelog.db`
  /// (falling back to `~/.local/share`).
  var databasePath: String {
    get throws {
      if let path = databasePathOverride ?? variable("LIFELOG_DB"), !path.isEmpty { return path }
      if let data = variable("XDG_DATA_HOME"), data.hasPrefix("/") {
        return data + "/lifelog/lifelog.db"
      }
      guard let home = variable("HOME"), !home.isEmpty else {
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
      let timeout = variable("LIFELOG_BUSY_TIMEOUT_MS").flatMap(Int32.init) ?? 10_000
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
      givenEnvironment: givenEnvironment, output: output, errors: errors,
      outputIsTerminal: outputIsTerminal,
      now: (try? ProcessEnvironment.now(fixedBy: variable("LIFELOG_NOW"))) ?? now, zone: zone,
      zoneName: zoneName, inputIsTerminal: inputIsTerminal)
    context.databasePathOverride = databasePathOverride
    context.verbose = verbose
    context.prompt = prompt
    return context
  }

  /// The terminal's width in columns, when output is a terminal.
  var terminalWidth: Int? {
    guard outputIsTerminal else { return nil }
    if let columns = variable("COLUMNS").flatMap(Int.init), columns > 20 { return columns }
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 else { return nil }
    return Int(size.ws_col)
  }
}
