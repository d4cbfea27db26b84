import Foundation
import LifelogCore
import LifelogSQLite
import LifelogTestSupport
import Testing

/// A real log written by lifelog 0.3.0 (Fixtures/v030-log.db, made by
/// scripts/make-v030-fixture.sh: schema v1-initial, v2-sync, v3-remote-keys, with synced batches of
/// two devices) opened by today's binary: every migration runs once, in place, and the log then
/// prints what 0.3.0 printed for it (Fixtures/v030-*), takes writes and passes `check`.
///
/// These tests hold behaviour, not a schema: they pass whatever layout the migrations end in.
@Suite struct V030LogMigrationTests {
  static let fixtures =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    .path + "/"

  let folder = TemporaryDirectory()
  var database: String { folder.file("log.db") }
  /// The zone the fixture script ran 0.3.0 with, and the morning after its clock (21:00 on
  /// 2026-11-30): the report range ends that day, which a report made the same evening now
  /// shows as not over yet, as 0.3.0 did not.
  var environment: [String: String] {
    [
      "LIFELOG_DB": database, "TZ": "Europe/Warsaw", "LIFELOG_NOW": "2026-12-01T09:00:00+01:00",
      "NO_COLOR": "1",
    ]
  }

  init() throws {
    try FileManager.default.copyItem(atPath: Self.fixtures + "v030-log.db", toPath: database)
  }

  private func lifelog(_ arguments: [String]) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment)
  }

  /// Runs `lifelog arguments...`, expecting success, and returns its standard output.
  private func run(_ arguments: String...) throws -> String {
    let result = try lifelog(arguments)
    #expect(result.exitCode == 0, "lifelog \(arguments.joined(separator: " ")): \(result)")
    return result.stdout
  }

  private static func expected(_ name: String) throws -> String {
    try String(contentsOfFile: fixtures + "v030-" + name, encoding: .utf8)
  }

  private func bytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  /// One command the fixture script ran with 0.3.0, and the file holding what it printed.
  struct Printed: Sendable, CustomTestStringConvertible {
    let file: String
    let arguments: [String]
    var testDescription: String { "lifelog " + arguments.joined(separator: " ") }
  }

  static let wholeRange = ["--from", "2026-01-01", "--to", "2027-01-01"]
  static let reportRange = ["--from", "2026-11-20", "--to", "2026-11-30"]
  static let printedTheSame: [Printed] = [
    Printed(file: "export.csv", arguments: ["export"]),
    Printed(file: "export.jsonl", arguments: ["export", "--format", "jsonl"]),
    Printed(file: "list.txt", arguments: ["list"] + wholeRange),
    Printed(file: "list.json", arguments: ["list", "--format", "json"] + wholeRange),
    Printed(file: "list-deleted.txt", arguments: ["list", "--deleted"] + wholeRange),
    Printed(file: "activity-list.txt", arguments: ["activity", "list"]),
    Printed(file: "activity-list.json", arguments: ["activity", "list", "--format", "json"]),
    Printed(
      file: "report-activity.txt", arguments: ["report", "activity", "--by", "day"] + reportRange),
    Printed(file: "report-meals.txt", arguments: ["report", "meals"] + reportRange),
    Printed(
      file: "report-meals.json", arguments: ["report", "meals", "--format", "json"] + reportRange),
  ]

  /// The first command on the fixture migrates it; each prints byte for byte what 0.3.0 did.
  ///
  /// The meal report flags gaps too short as well as too long since 0.3.0 (`mealGapMinHours`):
  /// with that end turned off it prints 0.3.0's text, and its JSON keeps every key and value
  /// 0.3.0 gave, with new keys beside them.
  @Test(arguments: printedTheSame)
  func theMigratedLogPrintsWhat030Printed(_ printed: Printed) throws {
    if printed.file.hasPrefix("report-meals") {
      _ = try run("settings", "set", "mealGapMinHours", "0")
    }
    let output = try lifelog(printed.arguments)
    #expect(output.exitCode == 0, "\(output)")
    #expect(output.stderr.isEmpty, "\(output)")
    let expected = try Self.expected(printed.file)
    if printed.file == "report-meals.json" {
      let old = try JSONSerialization.jsonObject(with: Data(expected.utf8))
      let now = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
      #expect(Self.keepsEveryValue(of: old, in: now), "\(output.stdout)")
    } else {
      #expect(output.stdout == expected)
    }
  }

  /// Whether `now` holds every key and value of `old` (objects may have gained keys).
  static func keepsEveryValue(of old: Any, in now: Any) -> Bool {
    if let old = old as? [String: Any], let now = now as? [String: Any] {
      return old.allSatisfy { key, value in
        now[key].map { keepsEveryValue(of: value, in: $0) } ?? false
      }
    }
    if let old = old as? [Any], let now = now as? [Any] {
      return old.count == now.count && zip(old, now).allSatisfy { keepsEveryValue(of: $0, in: $1) }
    }
    return (old as? NSObject)?.isEqual(now) ?? false
  }

  /// `settings` gained two keys since 0.3.0 (`remindQuietHours`, `remindBeforeMinutes`, for
  /// `lifelog remind`), which widens the table: every 0.3.0 row keeps its key, value and text, and
  /// each new key shows its default.
  @Test func theSettingsOf030AreKeptAndNewOnesAreAtTheirDefaults() throws {
    let old = try JSONSerialization.jsonObject(with: Data(try Self.expected("settings.json").utf8))
    let now = try JSONSerialization.jsonObject(
      with: Data(try run("settings", "--format", "json").utf8))
    let oldSettings = try #require(old as? [String: String])
    let newSettings = try #require(now as? [String: String])
    for (key, value) in oldSettings { #expect(newSettings[key] == value, "\(key)") }
    let oldRows = Self.cells(of: try Self.expected("settings.txt"))
    let newRows = Self.cells(of: try run("settings"))
    #expect(newRows.first == oldRows.first, "the header")
    let newByKey = Dictionary(newRows.dropFirst().map { ($0[0], $0) }) { first, _ in first }
    for row in oldRows.dropFirst() { #expect(newByKey[row[0]] == row, "\(row)") }
    let added = Set(newByKey.keys).subtracting(oldRows.dropFirst().map { $0[0] })
    #expect(added.count == newRows.count - oldRows.count)
    for key in added { #expect(newByKey[key]?[1].hasSuffix("(default)") == true, "\(key)") }
  }

  /// `remote list --format json` gained `held` (batches held back by a later lifelog) since 0.3.0:
  /// every key 0.3.0 printed keeps its value, and nothing is held.
  @Test func theRemoteOf030IsListedWithItsURLAndLastSync() throws {
    let old = try JSONSerialization.jsonObject(
      with: Data(try Self.expected("remote-list.json").utf8))
    let now = try JSONSerialization.jsonObject(
      with: Data(try run("remote", "list", "--format", "json").utf8))
    let oldRemotes = try #require(old as? [[String: Any]])
    let newRemotes = try #require(now as? [[String: Any]])
    try #require(oldRemotes.count == 1 && newRemotes.count == 1)
    for (key, value) in oldRemotes[0] {
      #expect("\(newRemotes[0][key] ?? "missing")" == "\(value)", "\(key)")
    }
    #expect((newRemotes[0]["held"] as? [Any])?.isEmpty == true)
  }

  /// The folder the fixture synced through is gone, so `sync` cannot reach it (exit 69, the log
  /// keeps every entry); `status` still names the remote and its URL.
  @Test func statusShowsTheRemoteAndSyncFindsItsFolderGone() throws {
    let remotes = try JSONSerialization.jsonObject(
      with: Data(try Self.expected("remote-list.json").utf8))
    let url = try #require((remotes as? [[String: Any]])?.first?["url"] as? String)
    let status = try run("status")
    #expect(status.contains("usb"), "\(status)")
    #expect(status.contains(url), "\(status)")
    if !FileManager.default.fileExists(atPath: url) {
      let sync = try lifelog(["sync"])
      #expect(sync.exitCode == 69, "\(sync)")
    }
    #expect(try run("export") == (try Self.expected("export.csv")))
  }

  /// add, edit by short id, delete and undo on the migrated log; the untouched entries still
  /// export as 0.3.0 exported them, and `check` finds no damage.
  @Test func writesWorkOnTheMigratedLogAndCheckPasses() throws {
    let added = try run(
      "add", "lunch", "after the migration", "--at", "2026-11-30 13:30", "--tag", "v3")
    #expect(added.hasPrefix("Added "), "\(added)")
    let short = String(added.dropFirst("Added ".count).prefix(8))
    let edited = try run("edit", short, "--note", "edited after the migration", "--qty", "2")
    #expect(edited.hasPrefix("Updated \(short) lunch"), "\(edited)")
    // A 0.3.0 entry, by its short id: "pierogi ruskie".
    let deleted = try run("delete", "68082d8e")
    #expect(deleted.hasPrefix("Deleted 68082d8e lunch"), "\(deleted)")
    let undone = try run("undo")
    #expect(undone.hasPrefix("Undid: "), "\(undone)")
    let listed = try run("list", "--format", "json", "--from", "2026-11-30", "--to", "2026-12-01")
    #expect(listed.contains("\"note\":\"edited after the migration\""), "\(listed)")
    #expect(listed.contains("\"tags\":[\"v3\"]"), "\(listed)")
    // Every 0.3.0 line is still exported, and the new entry beside them.
    let export = try run("export")
    let old = try Self.expected("export.csv").split(whereSeparator: \.isNewline)
    let new = export.split(whereSeparator: \.isNewline)
    #expect(Set(old).isSubset(of: Set(new)), "\(export)")
    #expect(new.count == old.count + 1)
    let check = try run("check")
    #expect(check.hasPrefix("No damage found"), "\(check)")
  }

  /// The migration runs once: after the first command a reading command writes nothing (the log
  /// file and its WAL stay byte for byte), and the log records each known migration once.
  @Test func aSecondRunIsANoOpAndEveryMigrationIsRecordedOnce() throws {
    let first = try run("list", "--limit", "5")
    let wal = database + "-wal"
    let logBefore = try bytes(database)
    let walBefore = FileManager.default.fileExists(atPath: wal) ? try bytes(wal) : nil
    #expect(try run("list", "--limit", "5") == first)
    #expect(try bytes(database) == logBefore, "a second run wrote to the log file")
    let walAfter = FileManager.default.fileExists(atPath: wal) ? try bytes(wal) : nil
    #expect(walAfter == walBefore, "a second run wrote to the WAL")
    let sql = try Database(path: database, mode: .readOnly)
    let identifiers = try sql.cachedStatement(sql: "SELECT identifier FROM lifelog_migrations")
      .map { $0[0] as String }
    #expect(identifiers.sorted() == LogStore.knownMigrations.sorted())
    #expect(Set(identifiers).isSuperset(of: ["v1-initial", "v2-sync", "v3-remote-keys"]))
  }

  /// A 0.3.0 log that a newer lifelog migrated (an identifier this one does not know, its last
  /// commits still in the WAL) is refused with exit 78 by reading and by writing commands alike,
  /// and neither the log file nor its WAL changes by a byte.
  @Test func aLogMigratedByANewerLifelogIsRefusedAndLeftUntouched() throws {
    _ = try run("list")
    do {
      let store = try LogStore(path: database)
      try store.database.execute(
        sql: "INSERT INTO lifelog_migrations (identifier) VALUES ('v99-from-the-future'); "
          + "PRAGMA user_version = 99")
    }
    let wal = database + "-wal"
    try #require(FileManager.default.fileExists(atPath: wal))
    let logBefore = try bytes(database)
    let walBefore = try bytes(wal)
    for arguments in [["list"], ["add", "snack", "apple"], ["settings"], ["sync"]] {
      let result = try lifelog(arguments)
      #expect(result.exitCode == 78, "\(arguments): \(result)")
      #expect(result.stderr.contains("newer lifelog"), "\(arguments): \(result)")
      #expect(try bytes(database) == logBefore, "\(arguments) changed the log file")
      #expect(try bytes(wal) == walBefore, "\(arguments) changed the WAL")
    }
  }

  /// The same for a newer lifelog's mark on the 0.3.0 file itself, without a WAL: nothing is
  /// migrated and no WAL is made.
  @Test func anUnknownMigrationBesideThoseOf030IsRefusedBeforeAnyMigration() throws {
    do {
      let sql = try Database(path: database, mode: .readWrite)
      try sql.execute(
        sql: "INSERT INTO lifelog_migrations (identifier) VALUES ('v9-from-the-future'); "
          + "PRAGMA user_version = 99")
    }
    try #require(!FileManager.default.fileExists(atPath: database + "-wal"))
    let before = try bytes(database)
    let result = try lifelog(["add", "snack", "apple"])
    #expect(result.exitCode == 78, "\(result)")
    #expect(try bytes(database) == before)
    #expect(!FileManager.default.fileExists(atPath: database + "-wal"))
  }

  /// The cells of a plain-text table: each line split where two or more spaces stand.
  static func cells(of table: String) -> [[String]] {
    table.split(separator: "\n").map { line in
      line.split(separator: "  ", omittingEmptySubsequences: true)
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
    }
  }
}
