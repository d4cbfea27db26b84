import LifelogCore
import LifelogSQLite
import LifelogSync

extension LifelogCommand {
  /// `lifelog check`: looks for damage in the log and on a remote, in the spirit of `restic check`,
  /// without writing to either.
  struct Check: Command {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Look for damage in the log and on a remote.",
      discussion: """
        Reads the log without writing to it: SQLite's integrity check, well-formed stamps, an
        activity for every entry, valid settings, and an outbox of batches without gaps. With
        --remote it also reads every batch and snapshot on that remote (opening sealed ones with the
        key this log keeps), looks for gaps in each device's batches, and checks that every batch
        this machine pushed is there unchanged. Prints one line per problem, then a summary. Exits 0
        when nothing is wrong, 65 when something is, 69 when the remote cannot be reached.
        """,
      options: [remote, TimeoutOption.remote.spec, TextOrJSON.option.spec],
      examples: [
        "lifelog check", "lifelog check --remote usb",
        "lifelog check --remote home --format json | jq .problems",
      ])

    static let remote = OptionSpec(
      ["--remote"], value: "name", help: "Also check this remote.", completes: .remoteName)

    let remoteName: String?
    let timeout: Int
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      remoteName = arguments.value(Self.remote)
      json = try arguments.choice(TextOrJSON.option) == .json
      timeout = try TimeoutOption.remote.seconds(in: arguments)
    }

    func run(in context: Context) throws {
      let progress = ImportProgress(context: context)
      var report = CheckReport()
      guard let log = try Self.open(try context.databasePath, context: context, into: &report)
      else {
        return try finish(report, remote: nil, in: context)
      }
      // Checking the tables of an older schema would report what a migration adds as missing.
      if let applied = try? log.appliedMigrations(), applied.count < LogStore.knownMigrations.count
      {
        throw ConfigurationError(
          "The log '\(log.path)' has an older schema that any other lifelog command upgrades (check never "
            + "writes); run 'lifelog status' once, then check again")
      }
      let sync = SyncStore(log: log)
      let record = try remoteName.flatMap { try Self.remote(named: $0, in: sync) }
      progress.label = { "Checking the log... \($0) rows read" }
      // One read transaction, so a sync running meanwhile is seen before or after, never halfway.
      let reading = (try? log.database.execute(sql: "BEGIN DEFERRED")) != nil
      log.check(into: &report, progress: progress.show)
      progress.label = { "Checking the outbox... \($0) batches read" }
      sync.check(into: &report, progress: progress.show)
      if reading { try? log.database.execute(sql: "COMMIT") }
      progress.clear()
      guard let record else { return try finish(report, remote: nil, in: context) }
      do {
        progress.label = { "Checking '\(record.name)'... \($0) files read" }
        report.merge(try check(record, store: sync, progress: progress, in: context))
        progress.clear()
      } catch {
        progress.clear()
        // What the log check found is still printed; the error says why the remote was not checked.
        var (code, message) = LifelogCommand.describe(error)
        if case SyncError.timedOut(let seconds) = error {
          message =
            "The check of '\(record.name)' did not finish within \(seconds) s (--timeout); the remote is "
            + "slow or unreachable, or too large to read in that time"
        }
        try? finish(report, remote: record.name, error: message, in: context)
        context.output.flush()
        context.errors.write("Error: \(TerminalText.visible(message))\n")
        throw ExitStatus(code: code)
      }
      try finish(report, remote: record.name, in: context)
    }

    /// Reads everything on one remote within `--timeout`.
    private func check(
      _ record: RemoteRecord, store: SyncStore, progress: ImportProgress, in context: Context
    ) throws -> CheckReport {
      let remote = try context.remote(
        record.url, token: record.token, deadline: Deadline(seconds: timeout),
        envelope: record.envelope)
      return try RemoteCheck(record: record, store: store, progress: progress.show).run(
        remote, seconds: timeout)
    }

    /// The remote named on the command line; nil when the table of remotes is too damaged to read
    /// (the log check says so).
    ///
    /// - Throws: ``UsageError`` when no remote has that name.
    static func remote(named name: String, in store: SyncStore) throws -> RemoteRecord? {
      do {
        if let record = try store.remote(named: name) { return record }
      } catch  where (try? store.log.database.tableExists("sync_remote")) == true {
        return nil
      } catch {}
      throw UsageError("No remote is named '\(name)'; see 'lifelog remote list'")
    }

    /// The log, read-only; nil (and a finding) when its file is too damaged to open.
    static func open(
      _ path: String, context: Context, into report: inout CheckReport
    ) throws -> LogStore? {
      do {
        let timeout = context.environment["LIFELOG_BUSY_TIMEOUT_MS"].flatMap(Int32.init) ?? 10_000
        return try LogStore(path: path, busyTimeoutMilliseconds: timeout, readOnly: true)
      } catch StoreError.storage(_, let error) where error.isCorruption {
        report.add("log", "integrity", "the file is too damaged to open: \(error.message)")
        return nil
      }
    }

    /// Prints the report and ends with 65 when it found anything.
    private func finish(
      _ report: CheckReport, remote: String?, error: String? = nil, in context: Context
    ) throws {
      context.output.write(
        json
          ? CheckReportText.json(report, remote: remote, error: error) + "\n"
          : CheckReportText.text(report, remote: remote, complete: error == nil))
      if !report.ok { throw ExitStatus(code: ExitCode.dataError) }
    }
  }
}

/// How `lifelog check` prints a ``CheckReport``: a line per problem and a summary, or one JSON object.
enum CheckReportText {
  /// What the log part counts, in the order the summary names them.
  static let logCounts = ["entries", "activities", "settings", "outbox batches", "remotes"]

  static func text(_ report: CheckReport, remote: String?, complete: Bool = true) -> String {
    // A damaged or hostile file's text can reach a message: no control character reaches the terminal.
    var text = report.problems.map { CheckText.printable("\($0.place): \($0.what)") + "\n" }
      .joined()
    let omitted = report.omitted.sorted { $0.key < $1.key }
    if !omitted.isEmpty {
      text +=
        "... and "
        + omitted.map { "\(grouped($0.value)) more of '\($0.key)'" }.joined(separator: ", ")
        + " (the first \(CheckReport.problemsPerCode) of each kind are listed)\n"
    }
    var checked = logCounts.map { counted(report.checkedCount($0), $0) }.joined(separator: ", ")
    if let remote, complete {
      checked +=
        "; " + counted(report.checkedCount("remote batches"), "batches") + " and "
        + counted(report.checkedCount("remote snapshots"), "snapshots") + " on '\(remote)'"
    }
    let count = report.problemCount
    text +=
      report.ok
      ? "No damage found\(complete ? "" : " in the log"): checked " + checked
      : "Damage found: \(grouped(count)) problem\(count == 1 ? "" : "s"); checked " + checked
    if let remote, !complete { text += "; '\(remote)' could not be checked" }
    text += "\n"
    if let advice = recoverAdvice(report) { text += advice + "\n" }
    return text
  }

  /// Points at `lifelog recover` when SQLite itself found the file damaged or could not read it.
  static func recoverAdvice(_ report: CheckReport) -> String? {
    let damaged = report.problems.contains {
      $0.place == "log" && ($0.code == "integrity" || $0.code == "unreadable")
    }
    return damaged
      ? "The log's file is damaged: 'lifelog recover' builds a new log from every row that can "
        + "still be read (add --from-remote NAME to pull what a remote holds); the damaged file is kept"
      : nil
  }

  /// `{"ok":…,"checked":{…},"problems":[{"where","code","what"}],"omitted":{…},"remote":…}`.
  static func json(_ report: CheckReport, remote: String?, error: String? = nil) -> String {
    var checked = JSONObjectWriter()
    for (name, count) in report.checked { checked.add(camelCase(name), count) }
    let problems = report.problems.map { problem -> String in
      var object = JSONObjectWriter()
      object.add("where", problem.place)
      object.add("code", problem.code)
      object.add("what", problem.what)
      return object.result
    }
    var omitted = JSONObjectWriter()
    for (code, count) in report.omitted.sorted(by: { $0.key < $1.key }) { omitted.add(code, count) }
    var object = JSONObjectWriter()
    object.add("ok", report.ok && error == nil)
    object.add("remote", remote)
    object.addRaw("checked", checked.result)
    object.addRaw("problems", "[" + problems.joined(separator: ",") + "]")
    object.addRaw("omitted", omitted.result)
    if let error { object.add("error", error) }
    if let advice = recoverAdvice(report) { object.add("advice", advice) }
    return object.result
  }

  /// `1 entry`, `12,345 entries`.
  static func counted(_ count: Int, _ plural: String) -> String {
    let singular =
      plural.hasSuffix("ies")
      ? plural.dropLast(3) + "y"
      : plural.hasSuffix("ches") ? String(plural.dropLast(2)) : String(plural.dropLast())
    return "\(grouped(count)) \(count == 1 ? singular : plural)"
  }

  /// `12,345`.
  static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return (number < 0 ? "-" : "") + text
  }

  /// `outbox batches` → `outboxBatches`.
  static func camelCase(_ name: String) -> String {
    let words = name.split(separator: " ")
    return words.enumerated().map {
      $0.offset == 0
        ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst()
    }
    .joined()
  }
}
