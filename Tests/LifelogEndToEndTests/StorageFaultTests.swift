import Foundation
import LifelogSQLite
import LifelogTestSupport
import Testing

/// Real faults under the built binary (libfiu makes `fdatasync`, `pwrite`, `pread` fail with a
/// real errno): the exit status tells the truth about the log, found out by reading it back, and
/// every message says what happened and what to do in words, without SQLite's codes.
@Suite(.enabled(if: FaultInjection.isAvailable, "libfiu (fiu-utils) is not installed"))
struct StorageFaultTests {
  let folder = TemporaryDirectory()
  var database: String { folder.file("lifelog.db") }
  var environment: [String: String] {
    ["LIFELOG_DB": database, "TZ": "UTC", "LIFELOG_NOW": "2026-12-02T12:00:00Z"]
  }

  private func run(_ arguments: String...) throws -> CommandResult {
    let result = try LifelogProcess.run(arguments, environment: environment)
    #expect(result.exitCode == 0, "\(result)")
    return result
  }

  private func faulted(_ point: String, _ arguments: String...) throws -> CommandResult {
    try FaultInjection.run(
      arguments, failing: [FaultInjection.failing(point)], environment: environment)
  }

  /// The notes of every entry in the log, as a fresh process reads them, sorted.
  private func notes() throws -> [String] {
    let listed = try run("list", "--format", "json").stdout
    return listed.split(separator: "\n").compactMap { line -> String? in
      line.range(of: "\"note\":\"").map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
    }.sorted()
  }

  private func expectNoSQLiteText(
    _ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for raw in ["SQLite", "malformed", "disk I/O error", "COMMIT"] {
      #expect(!result.stderr.contains(raw), "\(result)", sourceLocation: sourceLocation)
    }
  }

  /// SQLite's WAL keeps a transaction whose `fdatasync` failed at `COMMIT`: `add` must not say it
  /// failed (a retry would add it twice) nor succeed; it says it was saved, with its id, and 74.
  @Test func aFailedFlushAtCommitSaysTheEntryWasSavedWithItsID() throws {
    _ = try run("add", "snack", "apple")
    let result = try faulted("posix/io/sync/fdatasync", "add", "snack", "pear")
    #expect(result.exitCode == 74, "\(result)")
    #expect(result.stderr.hasPrefix("Error: The change was saved (add "), "\(result)")
    #expect(result.stderr.contains("do not run the command again"), "\(result)")
    #expect(result.stderr.contains("(see `dmesg`)"), "\(result)")
    expectNoSQLiteText(result)
    #expect(try notes() == ["apple", "pear"])
    let listed = try run("list", "--format", "json").stdout
    let pear = try #require(listed.split(separator: "\n").first { $0.contains("\"pear\"") })
    let id = try #require(pear.range(of: "\"id\":\"")).upperBound
    #expect(result.stderr.contains(String(pear[id...].prefix(8))), "\(result)\n\(pear)")
    #expect(try run("check").stdout.hasPrefix("No damage found"))
  }

  /// The same for `undo` (the step it reverted is gone once it is saved) and `delete`.
  @Test func aFailedFlushOfAnUndoOrADeleteSaysItWasSaved() throws {
    _ = try run("add", "snack", "apple")
    _ = try run("add", "snack", "pear")
    let undo = try faulted("posix/io/sync/fdatasync", "undo")
    #expect(undo.exitCode == 74, "\(undo)")
    #expect(undo.stderr.hasPrefix("Error: The undo was saved (it reverted 'add "), "\(undo)")
    expectNoSQLiteText(undo)
    #expect(try notes() == ["apple"])
    let delete = try faulted("posix/io/sync/fdatasync", "delete", "last")
    #expect(delete.exitCode == 74, "\(delete)")
    #expect(delete.stderr.hasPrefix("Error: The change was saved (delete"), "\(delete)")
    #expect(try notes() == [])
  }

  /// `remote add` records no undo step, but the remote it added tells: its failed flush says the
  /// remote was added (read back), not that lifelog cannot tell.
  @Test func aFailedFlushOfARemoteAddSaysTheRemoteWasAdded() throws {
    _ = try run("add", "snack", "apple")
    let result = try faulted("posix/io/sync/fdatasync", "remote", "add", "usb", folder.file("usb"))
    #expect(result.exitCode == 74, "\(result)")
    #expect(result.stderr.hasPrefix("Error: The remote 'usb' was added, but "), "\(result)")
    #expect(result.stderr.contains("do not run the command again"), "\(result)")
    expectNoSQLiteText(result)
    #expect(try run("remote", "list").stdout.contains("usb"))
  }

  /// A write that fails before the commit is whole leaves nothing, and says so.
  @Test func aFailedWriteSaysNothingWasSaved() throws {
    _ = try run("add", "snack", "apple")
    let result = try faulted("posix/io/rw/pwrite", "add", "snack", "pear")
    #expect(result.exitCode == 74, "\(result)")
    #expect(result.stderr.contains("Input/output error"), "\(result)")
    #expect(result.stderr.contains("othing was"), "\(result)")
    #expect(result.stderr.contains("(see `dmesg`)"), "\(result)")
    expectNoSQLiteText(result)
    #expect(try notes() == ["apple"])
    // The log is still whole: the next add works.
    _ = try run("add", "snack", "pear")
    #expect(try notes() == ["apple", "pear"])
  }

  /// An undo that first numbered the steps again (one was numbered past the range by hand) and
  /// then failed to write: the log still has the old numbers, so reading the step back by its
  /// new number tells nothing, and the message must not say the undo was saved.
  ///
  /// The connection that numbered a step by hand stays open, so the shared-memory file exists
  /// and the first write to fail is the `COMMIT`'s.
  @Test func aFailedWriteOfAnUndoThatNumberedTheStepsAgainDoesNotSayItWasSaved() throws {
    _ = try run("add", "snack", "apple")
    _ = try run("add", "snack", "pear")
    let log = try Database(path: database, mode: .readWrite)
    try log.execute(
      sql: """
        UPDATE entry SET add_step = json_set(add_step, '$[0]', 9223372036854775807)
        WHERE rowid = (SELECT max(rowid) FROM entry)
        """)
    let undo = try faulted("posix/io/rw/pwrite", "undo")
    #expect(undo.exitCode == 74, "\(undo)")
    #expect(!undo.stderr.contains("was saved"), "\(undo)")
    #expect(undo.stderr.contains("lifelog cannot tell if the log holds the change"), "\(undo)")
    #expect(!undo.stderr.contains("do not run the command again"), "\(undo)")
    expectNoSQLiteText(undo)
    #expect(try notes() == ["apple", "pear"])
  }

  /// A failed read is an I/O error naming the file, not "malformed" (the log is intact);
  /// `--verbose` adds SQLite's report on a second line.
  @Test func aFailedReadIsAnIOErrorNotDamage() throws {
    _ = try run("add", "snack", "apple")
    let result = try faulted("posix/io/rw/pread", "list")
    #expect(result.exitCode == 74, "\(result)")
    #expect(
      result.stderr.contains(
        "the disk reported an error (Input/output error) while reading '\(database)'")
        || result.stderr.contains(
          "The disk reported an error (Input/output error) while reading '\(database)'"),
      "\(result)")
    expectNoSQLiteText(result)
    let verbose = try FaultInjection.run(
      ["--verbose", "list"], failing: [FaultInjection.failing("posix/io/rw/pread")],
      environment: environment)
    #expect(verbose.exitCode == 74, "\(verbose)")
    let lines = verbose.stderr.split(separator: "\n")
    #expect(lines.count == 2 && lines[1].contains("SQLite error"), "\(verbose)")
  }

  /// A lock held too long is "try again" (75), naming the process that holds it.
  @Test func aLockedLogNamesTheProcessHoldingIt() throws {
    _ = try run("add", "snack", "apple")
    let holder = try Database(path: database, mode: .readWrite)
    try holder.execute(sql: "BEGIN IMMEDIATE")
    defer { try? holder.execute(sql: "ROLLBACK") }
    var environment = environment
    environment["LIFELOG_BUSY_TIMEOUT_MS"] = "100"
    let result = try LifelogProcess.run(["add", "snack", "pear"], environment: environment)
    #expect(result.exitCode == 75, "\(result)")
    #expect(result.stderr.contains("another lifelog (pid \(getpid()))"), "\(result)")
    #expect(result.stderr.contains("nothing was changed"), "\(result)")
  }

  /// An import whose file cannot be read part way names the file (not "input") and exits 74.
  @Test func anImportReadErrorNamesTheFile() throws {
    _ = try run("list")
    let file = folder.file("in.csv")
    try "activity,at,note\nsnack,2026-11-01T10:00:00Z,apple\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let result = try faulted("posix/io/rw/read", "import", file)
    #expect(result.exitCode == 74, "\(result)")
    #expect(
      result.stderr
        == "Error: Reading '\(file)' failed part way (Input/output error); nothing was imported. "
        + "Check the disk (see `dmesg`) and run again\n", "\(result)")
    #expect(try notes() == [])
  }

  /// An `open` the system fails with an I/O error is told as one (74), not as a path or a
  /// permission problem (78, "check the path and its permissions").
  @Test func aFailedOpenIsAnIOErrorNotABadPath() throws {
    _ = try run("add", "snack", "apple")
    let result = try faulted("posix/io/oc/open", "add", "snack", "pear")
    #expect(result.exitCode == 74, "\(result)")
    #expect(
      result.stderr.hasPrefix(
        "Error: The disk reported an error (Input/output error) while opening '\(database)'"),
      "\(result)")
    #expect(!result.stderr.contains("permissions"), "\(result)")
    expectNoSQLiteText(result)
    #expect(try notes() == ["apple"])
  }
}

/// The failures the fault campaign found told wrong: a failed open of an import's file, a log's
/// open failing with a stale `ENOENT`, a trap.
@Suite(.enabled(if: FaultInjection.isAvailable, "libfiu (fiu-utils) is not installed"))
struct StorageFaultFollowUpTests {
  let folder = TemporaryDirectory()
  var database: String { folder.file("lifelog.db") }
  var environment: [String: String] {
    ["LIFELOG_DB": database, "TZ": "UTC", "LIFELOG_NOW": "2026-12-02T12:00:00Z"]
  }

  private func run(_ arguments: String...) throws -> CommandResult {
    let result = try LifelogProcess.run(arguments, environment: environment)
    #expect(result.exitCode == 0, "\(result)")
    return result
  }

  /// An import file that is there but whose `open` the disk fails is an I/O error (74), not
  /// "no input" (66, for a file that is missing or cannot be read for its permissions).
  @Test func anImportFileWhoseOpenFailsIsAnIOError() throws {
    _ = try run("list")
    let file = folder.file("in.csv")
    try "activity,at,note\nsnack,2026-11-01T10:00:00Z,apple\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let result = try FaultInjection.run(
      ["import", file], failing: [FaultInjection.failing("posix/io/oc/open")],
      environment: environment)
    #expect(result.exitCode == 74, "\(result)")
    #expect(
      result.stderr
        == "Error: Opening '\(file)' failed (Input/output error); nothing was imported. Check the "
        + "disk (see `dmesg`) and run again\n", "\(result)")
    let missing = try LifelogProcess.run(
      ["import", folder.file("missing.csv")], environment: environment)
    #expect(missing.exitCode == 66, "\(missing)")
  }

  /// A log that is there, whose open the system fails with an `errno` that names no disk
  /// failure (`ENOENT`, as SQLite reports after a failed probe of its `-wal`), is an I/O error
  /// (74) that says nothing was changed, not "check the path" (78).
  @Test func aLogThatIsThereButCannotBeOpenedIsAnIOError() throws {
    _ = try run("add", "snack", "apple")
    let result = try FaultInjection.run(
      ["add", "snack", "pear"],
      failing: [FaultInjection.failing("posix/io/oc/open", errno: ENOENT)],
      environment: environment)
    #expect(result.exitCode == 74, "\(result)")
    #expect(result.stderr.contains("nothing was changed"), "\(result)")
    #expect(!result.stderr.contains("No such file"), "\(result)")
    #expect(!result.stderr.contains("check the path"), "\(result)")
    let listed = try run("list", "--format", "json").stdout
    #expect(listed.contains("apple") && !listed.contains("pear"), "\(listed)")
  }

  /// A process that traps says what its writes left, and still ends by the signal.
  ///
  /// An import is stopped once it holds the log open and waits for its rows on a FIFO: it has
  /// written nothing.
  @Test func aTrapSaysWhatItLeft() throws {
    _ = try run("add", "snack", "apple")
    let script = """
      mkfifo "$DIR/rows" || exit 90
      SWIFT_BACKTRACE=enable=no $LIFELOG import - --format csv < "$DIR/rows" 2> "$DIR/err" &
      importer=$!
      exec 3> "$DIR/rows"
      for _ in $(seq 1 600); do
        ls -l /proc/$importer/fd 2>/dev/null | grep -q "/lifelog.db$" && break
        sleep 0.1
      done
      ls -l /proc/$importer/fd | grep -q "/lifelog.db$" || exit 91
      kill -ABRT $importer
      # A signal it blocks would leave it waiting for rows for ever: bounded, then killed.
      for _ in $(seq 1 600); do kill -0 $importer 2>/dev/null || break; sleep 0.1; done
      kill -0 $importer 2>/dev/null && { kill -KILL $importer; wait $importer; exit 92; }
      wait $importer
      status=$?
      exec 3>&-
      cat "$DIR/err" >&2
      exit $status
      """
    var environment = environment
    environment["DIR"] = folder.path
    let result = try FaultInjection.shell(script, environment: environment)
    #expect(result.exitCode == 128 + SIGABRT, "\(result)")
    #expect(
      result.stderr.contains(
        "Error: lifelog stopped abruptly (the system refused it memory, or an internal error); "
          + "nothing was changed. Run the command again"), "\(result)")
  }
}

/// A log that is really damaged (pages overwritten) is called damaged, confirmed by
/// `quick_check`, and points at `lifelog check` and `lifelog recover` (65), without SQLite's text.
@Suite struct DamagedLogMessageTests {
  let folder = TemporaryDirectory()

  @Test func aDamagedLogPointsAtCheckAndRecover() throws {
    let database = folder.file("lifelog.db")
    let environment = ["LIFELOG_DB": database, "TZ": "UTC"]
    var csv = "activity,at,note\n"
    for index in 0..<300 {
      csv += "snack,2026-11-01T10:00:00Z,\(String(repeating: "a", count: 300)) \(index)\n"
    }
    try csv.write(toFile: folder.file("in.csv"), atomically: true, encoding: .utf8)
    let imported = try LifelogProcess.run(
      ["import", folder.file("in.csv")], environment: environment)
    #expect(imported.exitCode == 0, "\(imported)")
    do {
      let connection = try Database(path: database, mode: .readWrite)
      try connection.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    let handle = try #require(FileHandle(forUpdatingAtPath: database))
    let pages = Int(try handle.seekToEnd()) / 4096
    for page in 3..<(pages - 1) {
      try handle.seek(toOffset: UInt64(page * 4096 + 100))
      handle.write(Data(repeating: 0xFF, count: 200))
    }
    try handle.close()
    let result = try LifelogProcess.run(["list"], environment: environment)
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stderr
        == "Error: The log '\(database)' is damaged; run 'lifelog check' to see what is damaged, "
        + "and 'lifelog recover' to build a new log from what can still be read\n", "\(result)")
  }
}
