@preconcurrency import Glibc
import LifelogCore
import LifelogSync

extension LifelogCommand {
  /// `lifelog remind`: says once per gap that a meal is due; made for cron or a systemd timer.
  struct Remind: Command {
    static let configuration = CommandConfiguration(
      commandName: "remind",
      abstract: "Say once when a meal is due (for cron or a timer).",
      discussion: """
        Prints one line when a meal is due (remindBeforeMinutes early), once per gap between
        meals: never twice for the same gap, never once the meal is logged, never in quiet hours
        (remindQuietHours) or while a logged sleep is running. Exits 0 whether or not it reminded.
        What it last reminded about is kept per machine and never synced.
        """,
      options: [notify, exec, LanguageChoice.option],
      examples: [
        "lifelog remind",
        "lifelog remind --notify",
        "lifelog remind --exec 'logger -t lifelog \"$LIFELOG_MESSAGE\"'",
      ])

    static let notify = OptionSpec(
      ["--notify"], help: "Also send a desktop notification with notify-send.")
    static let exec = OptionSpec(
      ["--exec"], value: "command",
      help: "Also run this shell command, with the message in LIFELOG_MESSAGE.")

    let notify: Bool
    let command: String?
    let language: Language?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      notify = arguments.flag(Self.notify)
      command = arguments.value(Self.exec)
      if let command, command.trimmingSpaces().isEmpty || command.utf8.count > 4096 {
        throw InputError("--exec needs a shell command of at most 4096 bytes")
      }
      language = try LanguageChoice.parse(arguments)
    }

    func run(in context: Context) throws {
      let path = try context.databasePath
      // No log yet (a timer installed before the first entry): no meal can be due, and cron must
      // not mail an error every few minutes; nothing is created either.
      if path != ":memory:", access(path, F_OK) != 0, errno == ENOENT || errno == ENOTDIR {
        return
      }
      // Like sync: a second remind started while one runs leaves this moment to it.
      var lock: SyncLock?
      if path != ":memory:" {
        do {
          lock = try SyncLock(path: path + ".remind-lock")
        } catch let error {
          if case .syncRunning = error { return }
          throw error
        }
      }
      defer { withExtendedLifetime(lock) {} }
      let store = try context.store
      // One read transaction, as `due`: the meal, the sleep and the gap reminded of agree.
      let (due, sleep, remindedGap) = try store.reading {
        (
          try DueText.current(in: context), try store.lastSleep(atOrBefore: context.now),
          try store.remindedGap()
        )
      }
      let settings = ReminderSettings(values: due.values)
      let reminder = Reminder(
        due: due.due, lastMealID: due.lastMeal?.id, quiet: settings.quiet,
        beforeMinutes: settings.beforeMinutes, sleep: sleep?.time,
        sleepSeconds: sleep?.duration, remindedGap: remindedGap)
      guard case .remind(let gap) = reminder.outcome,
        try store.claimReminder(gap: gap, at: context.now)
      else {
        return
      }
      let language = LanguageChoice.resolve(language, setting: due.values[.language], in: context)
      // The reminder and the notes about delivering it are in one language.
      try Translation.$current.withValue(language.translation) {
        let message = due.message
        context.output.write(message + "\n")
        if notify { Self.sendNotification(message, context: context) }
        if let command { try Self.execute(command, message: message, context: context) }
      }
    }

    /// `notify-send`, when a session bus is there to carry it; otherwise says why not (stderr, in
    /// the reminder's language).
    static func sendNotification(_ message: String, context: Context) {
      let tr = Translation.current
      var environment = context.environment
      if (environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty {
        let runtime =
          environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
          ?? "/run/user/\(getuid())"
        var info = stat()
        guard stat(runtime + "/bus", &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK else {
          context.errors.write(
            tr.format(
              "Note: no desktop notification: no session bus (DBUS_SESSION_BUS_ADDRESS is not set and there is no {bus}); a systemd user timer ('lifelog timer install remind') has one",
              ["bus": runtime + "/bus"]) + "\n")
          return
        }
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(runtime)/bus"
      }
      guard let program = ChildProcess.find("notify-send", environment: environment) else {
        context.errors.write(
          tr(
            "Note: no desktop notification: notify-send is not installed (Debian package libnotify-bin)"
          )
            + "\n")
        return
      }
      do {
        let outcome = try ChildProcess.run(
          program, ["--app-name=lifelog", "lifelog", message],
          environment: ChildEnvironment(inheriting: environment))
        if outcome.status != 0 {
          context.errors.write(
            tr.format(
              "Note: notify-send failed (status {status}): {output}",
              ["status": "\(outcome.status)", "output": outcome.output.trimmingSpaces()]) + "\n")
        }
      } catch {
        context.errors.write(
          tr.format("Note: no desktop notification: {error}", ["error": "\(error)"]) + "\n")
      }
    }

    /// Runs `command` with `sh -c`, the message in `LIFELOG_MESSAGE`; its output joins ours, and
    /// a note in the reminder's language says when it failed.
    static func execute(_ command: String, message: String, context: Context) throws {
      let tr = Translation.current
      let environment = ChildEnvironment(
        inheriting: context.environment, adding: ["LIFELOG_MESSAGE": message])
      let outcome = try ChildProcess.run("/bin/sh", ["-c", command], environment: environment)
      context.output.write(outcome.output)
      if outcome.timedOut {
        context.errors.write(
          tr.format(
            "Note: the --exec command was stopped after {seconds} s",
            ["seconds": "\(ChildProcess.timeoutSeconds)"]) + "\n")
      } else if outcome.status != 0 {
        context.errors.write(
          tr.format(
            "Note: the --exec command exited with status {status}",
            ["status": "\(outcome.status)"]) + "\n")
      }
    }
  }
}
