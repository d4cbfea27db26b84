import Dispatch
@preconcurrency import Glibc
import LifelogCore
import LifelogSync

extension LifelogCommand {
  /// `lifelog sync`: exchange changes with the remotes; safe to run from cron every minute.
  struct Sync: Command {
    static let configuration = CommandConfiguration(
      commandName: "sync",
      abstract: "Sync the log with its remotes.",
      discussion: """
        Pulls and merges what other machines wrote, then pushes local changes. Only one sync of a log
        runs at a time: a second one exits at once with code 75. Never prompts.
        """,
      arguments: [remote],
      options: [quiet, TimeoutOption.sync.spec, compact],
      examples: [
        "lifelog sync", "lifelog sync usb --quiet --timeout 30",
        "*/15 * * * * lifelog sync --quiet",
      ])

    static let remote = ArgumentSpec("remote", "Sync only this remote.", .optional)
    static let quiet = OptionSpec(["--quiet"], help: "Print nothing when all went well (for cron).")
    static let compact = OptionSpec(
      ["--compact"], help: "Write a snapshot and delete this device's batches it covers.")

    let remoteName: String?
    let quiet: Bool
    let timeout: Int
    let compact: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      remoteName = try arguments.checkedPositionals(for: Self.configuration).value(Self.remote)
      quiet = arguments.flag(Self.quiet)
      compact = arguments.flag(Self.compact)
      timeout = try TimeoutOption.sync.seconds(in: arguments)
    }

    func run(in context: Context) throws {
      let path = try context.databasePath
      let lock = path == ":memory:" ? nil : try Self.lock(path + ".sync-lock", quiet: quiet)
      defer { withExtendedLifetime(lock) {} }
      let store = SyncStore(log: try context.store)
      var remotes = try store.remotes()
      if let remoteName {
        remotes = remotes.filter { $0.name == remoteName }
        if remotes.isEmpty {
          throw InputError("No remote is named '\(remoteName)'; see 'lifelog remote list'")
        }
      }
      guard !remotes.isEmpty else {
        throw ConfigurationError(
          "No remote to sync with; add one with 'lifelog remote add NAME FOLDER'")
      }
      let engine = SyncEngine(store: store)
      // One end for the whole run, which the engine checks between steps and every request to a
      // server honours: running out throws exit 69 back to the caller, so a sync inside
      // 'lifelog shell' ends the sync, not the shell.
      let deadline = Deadline(seconds: timeout)
      let watchdog = context.isWholeProcess ? Self.watchdog(seconds: timeout) : nil
      defer { watchdog?.cancel() }
      for record in remotes {
        let report: SyncEngine.Report
        do {
          report = try engine.sync(
            record,
            with: try context.remote(
              record.url, token: record.token, deadline: deadline, envelope: record.envelope),
            options: .init(compact: compact, deadline: deadline))
        } catch {
          guard let done = engine.lastReport, done.pulled > 0 || done.pushed > 0 else {
            throw error
          }
          throw SyncProgressError(
            remote: record.name, pulled: done.pulled, pushed: done.pushed, cause: error)
        }
        for skipped in report.skipped {
          context.errors.write(
            "Warning: skipped \(TerminalText.visible(skipped)); it will be read again on the next sync\n"
          )
        }
        for held in report.held where !held.reason.isUnreadable {  // unreadable: warned above
          // A device folder's or snapshot's name comes from the remote: shown, never obeyed.
          context.errors.write(
            TerminalText.visible("Warning: held back \(held.name): \(held.why); \(held.advice)")
              + "\n")
        }
        if let skew = report.clockSkewMilliseconds {
          context.errors.write(
            "Warning: a change from '\(record.name)' is stamped \(skew / 60_000) minutes ahead of this machine's clock\n"
          )
        }
        if !quiet {
          var line =
            "Synced '\(record.name)': pulled \(report.pulled) batch\(report.pulled == 1 ? "" : "es"), "
            + "pushed \(report.pushed)"
          if let name = report.snapshotMerged { line += ", merged snapshot \(name)" }
          if let name = report.snapshotWritten { line += ", wrote snapshot \(name)" }
          context.output.write(TerminalText.visible(line) + "\n")
          context.output.write(
            ReplacedFieldText(zone: context.zone).block(report.replaced))
        }
      }
    }

    /// The sync lock; with `--quiet`, another sync holding it ends this one with exit 75 alone:
    /// cron runs overlap by design, and a mail per overlap says nothing the code does not.
    static func lock(_ path: String, quiet: Bool) throws -> SyncLock {
      do {
        return try SyncLock(path: path)
      } catch let error as SyncError {
        guard quiet, case .syncRunning = error else { throw error }
        throw ExitStatus(code: ExitCode.temporaryFailure)
      }
    }

    /// Ends the process with the `--timeout` error and exit 69 when a one-shot sync is still
    /// running 5 s after its deadline.
    ///
    /// The engine checks the deadline between steps and every server request ends by it, but a
    /// read of a folder remote that never returns (a hung network mount) would keep the sync,
    /// and its lock, for ever: every later run from cron would exit 75. Ending the process is as
    /// safe as a crash, which every step survives. Armed only when the sync is the whole process
    /// (``Context/isWholeProcess``): inside `lifelog shell` the deadline's error ends the sync
    /// and the shell goes on.
    static func watchdog(seconds: Int) -> DispatchWorkItem {
      let message = Array("Error: \(SyncError.timedOut(seconds: seconds))\n".utf8)
      let item = DispatchWorkItem {
        _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        _exit(ExitCode.unavailable)
      }
      // The grace lets the engine's own deadline check, which records the outcome and names the
      // remote, go first even on a loaded machine.
      let grace = 5
      DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds + grace), execute: item)
      return item
    }
  }
}
