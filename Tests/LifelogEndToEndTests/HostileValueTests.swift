import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogCore
import LifelogProtocol
import LifelogSQLite
import LifelogSync
import LifelogTestSupport
import Testing

/// Values a remote hands over are checked where they enter, with the real binary and a real folder
/// remote (docs/sync-protocol.md §3): a crafted batch of values out of range merges without a
/// trap, control characters reach the terminal escaped, a snapshot whose covers are not device ids
/// is refused, and a damaged data key stops a sync before libsodium reads it.
@Suite struct HostileValueTests {
  let folder = TemporaryDirectory(prefix: "lifelog-hostile-values")
  var remote: String { folder.file("remote") }
  static let stranger = "c0ffee00-0000-4000-8000-00000000beef"
  static let clear = "\u{1B}[2J"

  /// A machine that created a plain folder remote and synced once.
  func laptopWithRemote() throws -> SyncMachine {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    try laptop.expectSuccess("sync")
    return laptop
  }

  /// A stamp a minute ago, written by the stranger (not in the future: that is another rule).
  static func stamp(_ counter: Int) -> String {
    Stamp.make(
      milliseconds: LogStore.systemMilliseconds() - 60_000, counter: counter, device: stranger)
  }

  static func row(
    _ entity: SyncedEntity, _ id: String, _ values: [FieldValue], counter: Int
  ) -> RowChange {
    RowChange(
      entity: entity, id: id, values: values,
      stamps: FieldStamps(count: values.count, stamp: stamp(counter)))
  }

  /// Batch 1 of the stranger: every value out of range that used to reach an `Int(…)` that traps.
  static func hostileBatch() -> [UInt8] {
    let walk = ActivityName.derivedID(for: "walk")
    let evil = "0badc0de-0000-4000-8000-000000000001"
    let at = LoggedTime(instant: 1_796_169_600, offsetMinutes: 60)  // 2026-12-01 17:00 in Warsaw
    return BatchCodec.encode(
      Batch(
        device: stranger, seq: 1, created: LogStore.systemMilliseconds() - 60_000,
        changes: [
          row(.setting, "mealGapHours", [.text("inf")], counter: 0),
          row(
            .activity, walk,
            [
              .text("walk"), .text("exercise"), .null, .text("100000000000000000000 min/week"),
              .flag(false), .flag(false),
            ],
            counter: 1),
          row(
            .activity, evil,
            [
              .text("tea\u{1B}]0;pwned\u{07}"), .text("meal"), .text("cups"), .null, .flag(false),
              .flag(false),
            ],
            counter: 2),
          row(
            .entry, "0badc0de-0000-4000-8000-0000000000e1",
            [
              .text(walk), .time(at), .integer(8_000_000_000_000_000), .text("far"), .real(1e300),
              .tags(["ok"]), .null, .flag(false),
            ],
            counter: 3),
          row(
            .entry, "0badc0de-0000-4000-8000-0000000000e2",
            [
              .text(evil), .time(LoggedTime(instant: 1_796_140_800, offsetMinutes: 60)), .null,
              .text(clear + "gone"),
              .real(2), .tags([]), .null, .flag(false),
            ],
            counter: 4),
        ]))
  }

  func write(_ bytes: [UInt8], to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  @Test func aCraftedBatchOfValuesOutOfRangeSyncsAndEveryCommandStillRuns() throws {
    let laptop = try laptopWithRemote()
    try write(Self.hostileBatch(), to: remote + "/devices/\(Self.stranger)/0000000001.batch")
    let synced = try laptop.expectSuccess("sync")
    #expect(synced.stdout.contains("pulled 1 batch"), "\(synced)")

    let warning =
      "Warning: the setting mealGapHours holds 'inf', which it does not accept (it came by sync); "
      + "using the default 3"
    for format in ["text", "md", "csv", "json", "html"] {
      for kind in [[], ["meals"], ["activity"]] {
        let report = try LifelogProcess.run(
          ["report"] + kind + ["--from", "2026-12-01", "--to", "2026-12-02", "--format", format],
          environment: laptop.environment)
        #expect(report.exitCode == 0, "report \(kind) --format \(format): \(report)")
        #expect(report.stderr.contains(warning), "\(report)")
        if format != "json" && format != "csv" {
          #expect(
            !report.stdout.contains("\u{1B}]0;") && !report.stdout.contains(Self.clear), "\(report)"
          )
        }
      }
    }
    let settings = try laptop.expectSuccess("settings")
    #expect(settings.stderr.contains(warning), "\(settings)")
    let mealGap = settings.stdout.split(separator: "\n").first { $0.hasPrefix("mealGapHours ") }
    #expect(
      mealGap.map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(3) }
        == ["mealGapHours", "3", "(default)"], "\(settings)")
    #expect(try laptop.expectSuccess("settings", "get", "mealGapHours").stdout == "3\n")

    // The target does not read, so the activity has none; the entry's duration and quantity are absent.
    let activities = try laptop.expectSuccess("activity", "list")
    #expect(
      activities.stderr.contains(
        "Warning: the activity 'walk' has the target '100000000000000000000 min/week', which is not one lifelog reads"
      ),
      "\(activities)")
    #expect(activities.stdout.contains("tea\\x1b]0;pwned\\x07"), "\(activities)")
    let walk = try #require(try laptop.entries()["0badc0de-0000-4000-8000-0000000000e1"])
    #expect(walk["duration"] is NSNull && walk["quantity"] is NSNull, "\(walk)")
  }

  @Test func controlCharactersInASyncedNoteAreShownEscapedButExportedExactly() throws {
    let laptop = try laptopWithRemote()
    try write(Self.hostileBatch(), to: remote + "/devices/\(Self.stranger)/0000000001.batch")
    try laptop.expectSuccess("sync")
    let list = try laptop.expectSuccess("list", "--from", "2026-12-01")
    #expect(list.stdout.contains("\\x1b[2Jgone"), "\(list)")
    #expect(!list.stdout.contains("\u{1B}"), "\(list)")
    let json = try laptop.expectSuccess("list", "--from", "2026-12-01", "--format", "json")
    #expect(json.stdout.contains("\\u001b[2Jgone"), "\(json)")
    let exported = try laptop.expectSuccess("export", "--format", "csv")
    #expect(
      exported.stdout.contains(Self.clear + "gone"), "export keeps the exact bytes: \(exported)")
  }

  @Test func localValuesOutOfRangeAreRefusedWithAClearMessage() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let refused: [([String], String)] = [
      (
        ["activity", "edit", "walk", "--target", "100000000000000000000 min/week"],
        "is larger than 10000000 a period"
      ),
      (
        ["activity", "add", "steps", "--target", "20000000 steps/day"],
        "is larger than 10000000 a period"
      ),
      (
        ["settings", "set", "mealGapHours", "inf"],
        "mealGapHours must be a number of hours from 0.5 to 24"
      ),
      (["settings", "set", "name", "Ada\u{1B}[2J"], "without control characters"),
      (["add", "snack", "--qty", "1e300"], "is larger than 1000000000"),
    ]
    for (arguments, message) in refused {
      let result = try LifelogProcess.run(arguments, environment: laptop.environment)
      #expect(result.exitCode == 65, "\(arguments): \(result)")
      #expect(
        result.stderr.hasPrefix("Error: ") && result.stderr.contains(message),
        "\(arguments): \(result)")
    }
    #expect(
      try laptop.expectSuccess("activity", "list", "--format", "json").stdout.contains(
        "\"target\":null"))
  }

  @Test func anImportedQuantityOutOfRangeIsRefusedWithItsLine() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let file = folder.file("import.csv")
    try Data("at,activity,quantity\n2026-12-01T08:00:00+01:00,snack,1e300\n".utf8)
      .write(to: URL(fileURLWithPath: file))
    let result = try laptop.run("import", file)
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stderr.contains("line 2") && result.stderr.contains("is larger than 1000000000"),
      "\(result)")
  }

  @Test func anErrorMessageQuotingControlCharactersShowsThemEscaped() throws {
    let laptop = SyncMachine("laptop", in: folder)
    // A remote inside a regular file cannot be made; the message quotes the path.
    let file = folder.file("not-a-folder\u{1B}[2J")
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let result = try laptop.run("remote", "add", "x", file + "/remote")
    #expect(result.exitCode != 0, "\(result)")
    #expect(result.stderr.contains("not-a-folder\\x1b[2J"), "\(result)")
    #expect(!result.stderr.contains("\u{1B}"), "\(result)")
  }

  @Test func aServersErrorMessageWithControlCharactersIsShownEscaped() throws {
    let answer = LoopbackServer.response(
      status: "401 Unauthorized",
      body: Array(
        #"{"error":{"code":"unauthorized","message":"\u001b[2J\u001b]0;pwned\u0007token refused"}}"#
          .utf8))
    let server = try LoopbackServer { _ in answer }
    defer { server.stop() }
    var environment = SyncMachine("laptop", in: folder).environment
    environment["LIFELOG_TOKEN"] = "t"
    let result = try LifelogProcess.run(
      ["remote", "add", "home", server.url], environment: environment)
    #expect(result.exitCode == 77, "\(result)")
    #expect(result.stderr.contains("(\\x1b[2J\\x1b]0;pwned\\x07token refused)"), "\(result)")
    #expect(!result.stderr.contains("\u{1B}"), "\(result)")
  }

  @Test func aSnapshotWhoseCoversAreNotDeviceIdsIsNotMerged() throws {
    let laptop = try laptopWithRemote()
    let snapshot = BatchCodec.encode(
      Batch(
        kind: .snapshot, device: Self.stranger, seq: 0,
        created: LogStore.systemMilliseconds() - 60_000,
        covers: VersionVector([Self.stranger: 1, "a_b": 5]),
        changes: [Self.row(.setting, "name", [.text("Mallory")], counter: 0)]))
    try write(snapshot, to: remote + "/snapshots/1780000000000-\(Self.stranger)-0badc0de.snapshot")
    let synced = try laptop.expectSuccess("sync")
    #expect(
      synced.stderr.contains(
        "Warning: skipped snapshots/1780000000000-\(Self.stranger)-0badc0de.snapshot: "
          + "its header's covers name a device id that is not one"), "\(synced)")
    #expect(try laptop.expectSuccess("settings", "get", "name").stdout == "\n")
    #expect(!(try laptop.expectSuccess("status", "--format", "json").stdout.contains("a_b")))
  }

  @Test func theServerRefusesASnapshotWhoseCoversAreNotDeviceIdsAndLaterCursorsStillRead() throws {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    defer { _ = server.terminate() }
    let alice = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("alice"))
    let writer = UUIDText.random()
    #expect(
      try alice.put("/v1/batches/\(writer)/1", SampleBatches.batch(device: writer, seq: 1)).status
        == 201)
    let hostile = SampleBatches.snapshot(device: writer, covers: [writer: 1, "a_b": 5])
    #expect(try alice.put("/v1/snapshots/100-\(writer)", hostile).status == 400)
    #expect(
      try alice.get("/v1/snapshots/latest?after=&exclude=\(UUIDText.random())&meta=1").status == 404
    )
    #expect(try alice.get("/v1/changes?after=&exclude=\(UUIDText.random())").status == 200)
  }

  @Test func aDataKeyOfTheWrongLengthInTheLogStopsTheSyncWith78AndSendsNothing() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let passphrase = folder.file("passphrase")
    try Data("correct horse battery staple\n".utf8).write(to: URL(fileURLWithPath: passphrase))
    try laptop.expectSuccess(
      "remote", "add", "usb", remote, "--encrypt", "--passphrase-file", passphrase)
    _ = try laptop.add("snack", "apple", "--at", "2026-12-01 10:00")
    // The log's row damaged: a key of 5 bytes, where libsodium would read 32.
    let database = try Database(path: laptop.databasePath)
    try database.execute(
      sql: "UPDATE sync_remote SET data_key = ?", arguments: [[UInt8](repeating: 1, count: 5)])
    let before = try FileManager.default.subpathsOfDirectory(atPath: remote).sorted()
    let result = try laptop.run("sync")
    #expect(result.exitCode == 78, "\(result)")
    #expect(
      result.stderr.contains("has a data key in this log that is 5 bytes long, not 32"), "\(result)"
    )
    #expect(
      try FileManager.default.subpathsOfDirectory(atPath: remote).sorted() == before,
      "nothing was sent")
  }
}
