@preconcurrency import Glibc
import LifelogCore

extension LifelogCommand {
  /// `lifelog timer`: runs `sync` or `remind` every few minutes through systemd user units.
  struct TimerGroup: DelegatingCommand {
    static let configuration = CommandConfiguration(
      commandName: "timer",
      abstract: "Run sync or remind every few minutes (systemd, cron).",
      discussion: "'lifelog timer' alone lists the installed timers.",
      subcommands: [TimerInstall.self, TimerRemove.self, TimerList.self])

    let work: TimerList
  }

  struct TimerInstall: Command {
    static let configuration = CommandConfiguration(
      commandName: "install",
      abstract:
        "Write and enable a systemd user timer, or print the crontab line where there is none.",
      discussion: """
        Writes lifelog-<job>.service and .timer under $XDG_CONFIG_HOME/systemd/user and enables them
        with 'systemctl --user'. Without a systemd user session it installs nothing and prints the
        line to add with 'crontab -e' instead.
        """,
      arguments: [job],
      options: [every],
      examples: ["lifelog timer install remind", "lifelog timer install sync --every 30m"])
    static let job = ArgumentSpec(
      "job", "sync or remind.", completes: .choices(TimerUnits.Job.allCases.map(\.rawValue)))
    static let every = OptionSpec(
      ["--every"], value: "duration", help: "How often: 5m, 15m, 30m, 1h, ...", default: "15m")

    let job: TimerUnits.Job
    let everySeconds: Int

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      job = try TimerList.job(
        arguments.checkedPositionals(for: Self.configuration).required(Self.job))
      everySeconds = try TimerUnits.interval(arguments.valueOrDefault(Self.every) ?? "")
    }

    func run(in context: Context) throws {
      let units = try TimerUnits(
        job: job, everySeconds: everySeconds, binary: TimerList.binary(context),
        database: TimerList.absoluteDatabase(context))
      let systemd = SystemdUser(context: context)
      if let reason = systemd.unavailableReason() {
        // A crontab run has no session bus, so the line runs plain 'remind': no note needed.
        context.output.write(
          "No systemd user session here (\(reason)), so nothing was installed. "
            + "Add this line with 'crontab -e' instead:\n\(units.crontabLine)\n")
        return
      }
      let folder = try systemd.unitFolder()
      try TimerList.createFolders(folder)
      let files = [
        ("\(folder)/\(job.unitName).service", units.serviceFile),
        ("\(folder)/\(job.unitName).timer", units.timerFile),
      ]
      let before = files.map { UnitFileBefore(path: $0.0) }
      do {
        for (path, text) in files { try TimerList.write(text, to: path) }
        try systemd.run(["daemon-reload"])
        try systemd.run(["enable", "--now", "\(job.unitName).timer"])
      } catch {
        // Not installed: no unit files left behind that 'timer list' would show as installed,
        // or that a later login would find half set up.
        for file in before { file.restore() }
        _ = try? systemd.run(["daemon-reload"])
        throw error
      }
      context.output.write(
        "Installed \(job.unitName).timer: runs 'lifelog \(job.arguments.joined(separator: " "))' every "
          + "\(DurationText.format(everySeconds)) (units in \(folder))\n")
      if job == .remind { Self.noteMissingNotifier(context) }
    }

    /// Says when `notify-send` is not on PATH: the timer is installed all the same (each run
    /// then notes the missing program in the journal and still prints its line), so installing
    /// the package later makes it notify without a new install.
    static func noteMissingNotifier(_ context: Context) {
      guard ChildProcess.find("notify-send", environment: context.environment) == nil else {
        return
      }
      context.errors.write(
        "Note: notify-send is not on PATH, so the reminder cannot show a desktop notification "
          + "until it is installed (Debian package libnotify-bin: sudo apt install libnotify-bin); "
          + "or have your own timer run 'lifelog remind --exec <command>' to be reminded another way\n"
      )
    }
  }

  struct TimerRemove: Command {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Disable and delete a lifelog timer (both when none is named).",
      arguments: [job],
      examples: ["lifelog timer remove remind", "lifelog timer remove"])
    static let job = ArgumentSpec(
      "job", "sync or remind.", .optional,
      completes: .choices(TimerUnits.Job.allCases.map(\.rawValue)))

    let jobs: [TimerUnits.Job]

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      jobs =
        try arguments.checkedPositionals(for: Self.configuration).value(Self.job).map {
          try [TimerList.job($0)]
        }
        ?? TimerUnits.Job.allCases
    }

    func run(in context: Context) throws {
      let systemd = SystemdUser(context: context)
      let folder = try systemd.unitFolder()
      let installed = jobs.filter { access("\(folder)/\($0.unitName).timer", F_OK) == 0 }
      guard !installed.isEmpty else {
        context.output.write(
          "No lifelog timer to remove (a crontab line is removed with 'crontab -e').\n")
        return
      }
      let session = systemd.unavailableReason() == nil
      for job in installed {
        if session { try systemd.run(["disable", "--now", "\(job.unitName).timer"]) }
        for suffix in [".timer", ".service"] { unlink("\(folder)/\(job.unitName)\(suffix)") }
        context.output.write("Removed \(job.unitName).timer\n")
      }
      if session { try systemd.run(["daemon-reload"]) }
    }
  }

  struct TimerList: Command {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the installed lifelog timers.",
      examples: ["lifelog timer list"])

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
    }

    func run(in context: Context) throws {
      let folder = try SystemdUser(context: context).unitFolder()
      var table = Table([
        .init(title: "TIMER"), .init(title: "EVERY"), .init(title: "RUNS", truncatable: true),
      ])
      for job in TimerUnits.Job.allCases {
        guard let text = Self.read("\(folder)/\(job.unitName).timer") else { continue }
        let every = TimerUnits.interval(inTimerFile: text).map(DurationText.format) ?? "?"
        table.append([
          "\(job.unitName).timer", every, "lifelog " + job.arguments.joined(separator: " "),
        ])
      }
      guard !table.rows.isEmpty else {
        context.output.write(
          "No lifelog timers installed; add one with 'lifelog timer install remind'.\n")
        return
      }
      context.output.write(table.render(width: context.terminalWidth, bold: context.usesColor))
    }

    static func job(_ text: String) throws -> TimerUnits.Job {
      guard let job = TimerUnits.Job(rawValue: text.lowercased()) else {
        throw InputError("Unknown job '\(text)'; a timer runs 'sync' or 'remind'")
      }
      return job
    }

    static func binary(_ context: Context) throws -> String {
      guard let path = TimerUnits.runningBinary() else {
        throw ConfigurationError(
          "Cannot find the lifelog binary (/proc/self/exe); install it and try again")
      }
      return path
    }

    /// The log's path made absolute: a timer does not start in this folder.
    ///
    /// What a unit file or crontab line can carry is checked on this final form, by
    /// ``TimerUnits``, not here: the current folder's name is as much outside input as `--db`.
    static func absoluteDatabase(_ context: Context) throws -> String {
      let path = try context.databasePath
      if path.hasPrefix("/") { return path }
      var buffer = [CChar](repeating: 0, count: 4096)
      guard getcwd(&buffer, buffer.count) != nil else {
        throw ConfigurationError(
          "Cannot read the current folder to make '\(path)' absolute; pass --db /full/path")
      }
      guard let folder = String(validatingCString: buffer) else {
        throw InputError(
          "The current folder's path is not UTF-8 text, which a systemd unit or a crontab line "
            + "cannot carry safely; pass --db /full/path")
      }
      return folder + "/" + path
    }

    static func createFolders(_ folder: String) throws {
      do {
        try LocalFile.createFolders(folder)
      } catch {
        throw ConfigurationError("Cannot create '\(error.path)': \(error.reason)")
      }
    }

    /// Writes a unit file (0644, as systemd's own tools make them), atomically, then reads it
    /// back: only a file that holds exactly these bytes counts as written.
    static func write(_ text: String, to path: String) throws {
      let bytes = Array(text.utf8)
      do {
        try LocalFile.write(bytes, to: path, mode: 0o644)
        guard try LocalFile.read(path, limit: 65536) == bytes else {
          throw ConfigurationError(
            "'\(path)' does not read back as written; check the folder and try again")
        }
      } catch let error as LocalFileError {
        throw ConfigurationError("Cannot write '\(path)': \(error.reason)")
      }
    }

    /// A small file's text (a unit file), nil when it cannot be read or is over 64 KiB.
    static func read(_ path: String) -> String? {
      guard let bytes = try? LocalFile.read(path, limit: 65536) else { return nil }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}

/// `systemctl --user`, found on the context's PATH.
struct SystemdUser {
  let context: Context

  /// Why there is no systemd user session to install into; nil when there is one.
  func unavailableReason() -> String? {
    guard let program = ChildProcess.find("systemctl", environment: context.environment) else {
      return "systemctl is not on PATH"
    }
    guard
      let outcome = try? ChildProcess.run(
        program, ["--user", "show-environment"],
        environment: ChildEnvironment(inheriting: context.environment)),
      outcome.status == 0
    else {
      return "'systemctl --user' cannot reach a user manager"
    }
    return nil
  }

  /// `$XDG_CONFIG_HOME/systemd/user`, else `~/.config/systemd/user`.
  func unitFolder() throws -> String {
    if let config = context.environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return config + "/systemd/user"
    }
    guard let home = context.environment["HOME"], home.hasPrefix("/") else {
      throw ConfigurationError(
        "Cannot find the systemd user folder: neither XDG_CONFIG_HOME nor HOME is set")
    }
    return home + "/.config/systemd/user"
  }

  func run(_ arguments: [String]) throws {
    guard let program = ChildProcess.find("systemctl", environment: context.environment) else {
      throw ConfigurationError("systemctl is not on PATH")
    }
    let outcome = try ChildProcess.run(
      program, ["--user"] + arguments,
      environment: ChildEnvironment(inheriting: context.environment))
    guard outcome.status == 0 else {
      throw TimerError(
        "'systemctl --user \(arguments.joined(separator: " "))' failed (status \(outcome.status)): "
          + outcome.output.trimmingSpaces())
    }
  }
}

/// A unit file as it was before `timer install` wrote it, to put back when installing fails.
struct UnitFileBefore {
  let path: String
  /// Whether a file was there.
  let existed: Bool
  /// Its text, when it was there and could be read.
  let text: String?

  init(path: String) {
    self.path = path
    existed = access(path, F_OK) == 0
    text = existed ? LifelogCommand.TimerList.read(path) : nil
  }

  /// Puts the file back as it was: removed when it was not there, rewritten when it was.
  func restore() {
    if !existed {
      unlink(path)
    } else if let text {
      try? LifelogCommand.TimerList.write(text, to: path)
    }
  }
}

/// systemd refused to load or enable a unit (exit 69).
struct TimerError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
