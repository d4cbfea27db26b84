@preconcurrency import Glibc
import LifelogCore
import LifelogSync

extension LifelogCommand {
  /// `lifelog recover`: builds a new log from what can still be read of a damaged one, and sets
  /// the damaged files aside; never repairs them in place.
  struct Recover: Command {
    static let configuration = CommandConfiguration(
      commandName: "recover",
      abstract: "Build a new log from what a damaged one still holds.",
      discussion: """
        Copies every row SQLite can still read of the log into a new log, table by table, skipping
        damaged pages (and rebuilding a header that was overwritten). The damaged file is never
        changed: it is kept beside the new one as <log>.damaged-<date> (with its -wal and -shm),
        and the new log takes its place (or goes to --output). The new log syncs as a new device
        holding every row it saved, so what was not pushed yet is pushed on the next sync, and
        with --from-remote it syncs with that remote at once, pulling everything it holds. Prints
        what was saved and what could not be read, per table. Exits 65 when nothing can be read,
        66 when there is no log, 78 when the file is not a lifelog log; 69 when the remote cannot
        be reached (the new log is kept).
        """,
      options: [fromRemote, output, TimeoutOption.remote.spec, TextOrJSON.option.spec],
      examples: [
        "lifelog recover", "lifelog recover --from-remote home",
        "lifelog recover --output ~/rescued.db --format json",
      ])

    static let fromRemote = OptionSpec(
      ["--from-remote"], value: "name",
      help: "Then sync with this remote of the damaged log, pulling all it holds.",
      completes: .remoteName)
    static let output = OptionSpec(
      ["--output"], value: "path",
      help: "Write the new log here and leave the damaged one where it is.")

    let remoteName: String?
    let output: String?
    let timeout: Int
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      remoteName = arguments.value(Self.fromRemote)
      output = arguments.value(Self.output)
      json = try arguments.choice(TextOrJSON.option) == .json
      timeout = try TimeoutOption.remote.seconds(in: arguments)
    }

    func run(in context: Context) throws {
      let path = try context.databasePath
      guard path != ":memory:", access(path, F_OK) == 0 else {
        throw InputFileError.missing(path)
      }
      if let output, access(output, F_OK) == 0 {
        throw ConfigurationError(
          "'\(output)' already exists; give --output a path where no file is")
      }
      let target = output ?? path + ".recovering"
      if output == nil { Self.remove(target) }
      let report: RecoveryReport
      do {
        report = try LogRecovery.recover(path, into: target)
        if let remoteName { try Self.checkRemote(remoteName, in: target) }
      } catch let error as RecoveryError {
        Self.remove(target)
        if case .notALog = error { throw ConfigurationError(error.description) }
        throw InputError(error.description)
      } catch let error as LocalFileError {
        Self.remove(target)
        context.errors.write(
          "Error: cannot recover: \(TerminalText.visible(error.description)); nothing was changed\n"
        )
        throw ExitStatus(code: ExitCode.ioError)
      } catch {
        Self.remove(target)
        throw error
      }
      var aside: String?
      if output == nil { aside = try Self.swap(path, with: target, at: context.now) }
      let printer = RecoveryText(
        report: report, log: output ?? path, damaged: aside ?? path, json: json)
      guard let remoteName else { return context.output.write(printer.text(synced: nil)) }
      context.databasePathOverride = output ?? path
      do {
        let synced = try sync(remoteName, in: context)
        context.output.write(printer.text(synced: synced))
      } catch {
        context.output.write(printer.text(synced: nil))
        throw error
      }
    }

    /// Syncs the recovered log with one of its remotes; returns the batches pulled and pushed.
    private func sync(_ name: String, in context: Context) throws -> (pulled: Int, pushed: Int) {
      let path = try context.databasePath
      let lock = try SyncLock(path: path + ".sync-lock")
      defer { withExtendedLifetime(lock) {} }
      let store = SyncStore(log: try context.store)
      guard let record = try store.remote(named: name) else {
        throw InputError("No remote is named '\(name)'; see 'lifelog remote list'")
      }
      let deadline = Deadline(seconds: timeout)
      let report = try SyncEngine(store: store).sync(
        record,
        with: try context.remote(
          record.url, token: record.token, deadline: deadline, envelope: record.envelope),
        options: .init(deadline: deadline))
      return (report.pulled, report.pushed)
    }

    /// Refuses, before anything is moved, a remote the recovered log does not know.
    private static func checkRemote(_ name: String, in path: String) throws {
      let store = SyncStore(log: try LogStore(path: path))
      guard try store.remote(named: name) != nil else {
        throw InputError(
          "The damaged log holds no remote named '\(name)' (or its row was lost); nothing was "
            + "changed. Recover without --from-remote, then 'lifelog remote add' and 'lifelog sync'"
        )
      }
    }

    /// Moves the damaged log (and its WAL and shared memory) aside, then the new one into its place;
    /// returns where the damaged log went.
    private static func swap(_ path: String, with target: String, at now: Int64) throws -> String {
      var aside = path + ".damaged-" + stamp(now)
      var attempt = 1
      while access(aside, F_OK) == 0 {
        attempt += 1
        aside = path + ".damaged-" + stamp(now) + "-\(attempt)"
      }
      for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
        guard rename(path + suffix, aside + suffix) == 0 else {
          throw ConfigurationError(
            "Cannot move '\(path)\(suffix)' aside: \(String(cString: strerror(errno))); the new log "
              + "is at '\(target)'")
        }
      }
      for suffix in ["-wal", "-shm", ""] where access(target + suffix, F_OK) == 0 {
        guard rename(target + suffix, path + suffix) == 0 else {
          throw ConfigurationError(
            "Cannot move the new log '\(target)\(suffix)' into place: "
              + "\(String(cString: strerror(errno))); the damaged log is at '\(aside)'")
        }
      }
      return aside
    }

    /// `20261206-041311`: the UTC time of the recovery, for the damaged file's name.
    static func stamp(_ now: Int64) -> String {
      var seconds = time_t(now)
      var parts = tm()
      gmtime_r(&seconds, &parts)
      func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
      return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
        + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }

    private static func remove(_ path: String) {
      for suffix in ["", "-wal", "-shm", ".reading", ".reading-wal", ".reading-shm"] {
        unlink(path + suffix)
      }
    }
  }
}
