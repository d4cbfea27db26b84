import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogProtocol
import LifelogSQLite
import LifelogSync
import LifelogTestSupport
import Testing

/// `lifelog check` with the real binary on real logs and folder remotes, damaged for real: with
/// SQLite's C API on the log's file, and by removing and changing files in the remote folder.
@Suite struct CheckCommandTests {
  let folder = TemporaryDirectory(prefix: "lifelog-check-e2e")
  var remote: String { folder.file("usb") }

  /// A machine that has made `batches` batches and pushed them to the folder remote `usb`.
  func machine(_ name: String, batches: Int, join: Bool = false) throws -> SyncMachine {
    let machine = SyncMachine(name, in: folder)
    try machine.expectSuccess("remote", "add", "usb", remote, "--no-encrypt")
    for index in 0..<batches {
      _ = try machine.add("lunch", "\(name) soup \(index)", "--at", "2026-12-01 12:\(10 + index)")
      try machine.expectSuccess("sync")
    }
    return machine
  }

  /// Runs `lifelog check arguments… --format json` and returns the exit code and the object.
  static func checkJSON(
    _ machine: SyncMachine, _ arguments: String...
  ) throws -> (Int32, [String: Any]) {
    let result = try LifelogProcess.run(
      ["check"] + arguments + ["--format", "json"], environment: machine.environment)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      "\(result)")
    return (result.exitCode, object)
  }

  /// The codes of the problems in a JSON report, with where each is.
  static func problems(_ object: [String: Any]) -> [(code: String, place: String, what: String)] {
    ((object["problems"] as? [[String: Any]]) ?? []).map {
      ($0["code"] as? String ?? "", $0["where"] as? String ?? "", $0["what"] as? String ?? "")
    }
  }

  /// Runs SQL on a log (or any SQLite file) through SQLite's C API, as damage or a careless tool would.
  static func damage(_ path: String, _ sql: String) throws {
    let database = try Database(path: path, mode: .readWrite)
    try database.execute(sql: sql)
  }

  // MARK: - The log

  @Test func aCleanLogIsReportedUndamagedAndItsFileIsNotWritten() throws {
    let laptop = try machine("laptop", batches: 2)
    let before = try Data(contentsOf: URL(fileURLWithPath: laptop.databasePath))
    // The WAL is kept between commands (docs/schema.md), so it holds the latest commits.
    let wal = laptop.databasePath + "-wal"
    let walBefore = try Data(contentsOf: URL(fileURLWithPath: wal))
    #expect(!walBefore.isEmpty)
    let result = try laptop.run("check")
    #expect(result.exitCode == 0, "\(result)")
    #expect(
      result.stdout
        == "No damage found: checked 2 entries, 8 activities, 0 settings, 2 outbox batches, 1 remote\n",
      "\(result)")
    #expect(result.stderr.isEmpty, "\(result)")
    let (code, object) = try CheckCommandTests.checkJSON(laptop)
    #expect(code == 0)
    #expect(object["ok"] as? Bool == true, "\(object)")
    let checked = try #require(object["checked"] as? [String: Int], "\(object)")
    #expect(
      checked["entries"] == 2 && checked["outboxBatches"] == 2 && checked["activities"] == 8,
      "\(checked)")
    #expect((object["problems"] as? [Any])?.isEmpty == true, "\(object)")
    let after = try Data(contentsOf: URL(fileURLWithPath: laptop.databasePath))
    #expect(before == after, "check wrote to the log")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: wal)) == walBefore, "check wrote to the log's WAL")
  }

  @Test func aBadStampADeletedActivityAndAnOutboxGapAreEachNamed() throws {
    let laptop = try machine("laptop", batches: 3)
    try laptop.expectSuccess("activity", "add", "tea", "--kind", "other")
    let tea = try laptop.add("tea", "green", "--at", "2026-12-01 15:00")
    let breakfast = try laptop.add("breakfast", "oats", "--at", "2026-12-01 07:00")
    try CheckCommandTests.damage(
      laptop.databasePath,
      """
      UPDATE entry SET stamps = substr(stamps, 2)
        WHERE hex(id) = upper(replace('\(breakfast)', '-', ''));
      DELETE FROM activity WHERE name = 'tea';
      DELETE FROM sync_outbox WHERE seq = 2;
      """)
    let before = try Data(contentsOf: URL(fileURLWithPath: laptop.databasePath))
    let result = try laptop.run("check")
    #expect(result.exitCode == 65, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix("log: entry \(breakfast): its stamp '")
          && $0.contains("is not 28 lower-case hex")
      },
      "\(result)")
    #expect(
      lines.contains {
        $0.hasPrefix("log: entry \(tea): its activity ") && $0.contains("does not exist")
      }, "\(result)")
    #expect(
      lines.contains("log: outbox: batch 2 made here is missing, so no remote can ever receive it"),
      "\(result)")
    #expect(
      lines.last?.hasPrefix("Damage found: 3 problems; checked 5 entries") == true, "\(result)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: laptop.databasePath)) == before,
      "check wrote to the log")

    let (code, object) = try CheckCommandTests.checkJSON(laptop)
    #expect(code == 65)
    #expect(object["ok"] as? Bool == false)
    let found = CheckCommandTests.problems(object)
    #expect(found.map(\.code).sorted() == ["activity", "outbox", "stamp"], "\(found)")
    #expect(found.first { $0.code == "stamp" }?.place == "log: entry \(breakfast)", "\(found)")
  }

  @Test func aCorruptedPageIsFoundBySQLitesIntegrityCheck() throws {
    let laptop = SyncMachine("laptop", in: folder)
    for hour in 10..<20 {
      _ = try laptop.add("snack", "apple \(hour)", "--at", "2026-12-01 \(hour):00")
    }
    // The latest pages are in the kept WAL; a bad sector hits the log file once they are copied
    // there, which the checkpoint does now.
    #expect(try Database(path: laptop.databasePath, mode: .readWrite).checkpointBeforeClosing())
    // Overwrite the cell pointers of the time index's root page, as a bad disk sector would.
    let database = try Database(path: laptop.databasePath, mode: .readOnly)
    let page = try #require(
      try database.cachedStatement(
        sql: "SELECT rootpage FROM sqlite_schema WHERE name = 'entry_by_time'"
      )
      .first { $0[0] as Int })
    let pageSize = try #require(
      try database.cachedStatement(sql: "PRAGMA page_size").first { $0[0] as Int })
    var bytes = try Data(contentsOf: URL(fileURLWithPath: laptop.databasePath))
    for offset in 8..<40 { bytes[(page - 1) * pageSize + offset] = 0xFF }
    try bytes.write(to: URL(fileURLWithPath: laptop.databasePath))

    let result = try laptop.run("check")
    #expect(result.exitCode == 65, "\(result)")
    #expect(result.stdout.contains("log: SQLite's integrity check says: "), "\(result)")
    #expect(result.stdout.contains("page \(page)"), "names the damaged page: \(result)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: laptop.databasePath)) == bytes,
      "check wrote to the log")
  }

  @Test func usageErrorsExit64AndAMissingOrOlderLogIsLeftAlone() throws {
    let laptop = try machine("laptop", batches: 0)
    let unknown = try laptop.run("check", "--remote", "nas")
    #expect(unknown.exitCode == 64, "\(unknown)")
    #expect(unknown.stderr.hasPrefix("Error: No remote is named 'nas'"), "\(unknown)")
    #expect(unknown.stdout.isEmpty, "\(unknown)")
    #expect(try laptop.run("check", "--timeout", "0").exitCode == 65)
    #expect(try laptop.run("check", "extra").exitCode == 64)
    // A log of an older schema is not checked (check would have to migrate it), and not changed.
    let old = SyncMachine("old", in: folder)
    _ = try LogStore(path: old.databasePath, schemaVersion: 2)
    let before = try Data(contentsOf: URL(fileURLWithPath: old.databasePath))
    let older = try old.run("check")
    #expect(older.exitCode == 78, "\(older)")
    #expect(
      older.stderr.contains("has an older schema") && older.stderr.contains("'lifelog status'"),
      "\(older)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: old.databasePath)) == before)
    let nobody = SyncMachine("nobody", in: folder)
    let missing = try nobody.run("check")
    #expect(missing.exitCode == 78, "\(missing)")
    #expect(!FileManager.default.fileExists(atPath: nobody.databasePath), "check created a log")
  }

  // MARK: - A folder remote

  @Test func aCleanFolderRemoteIsReportedUndamaged() throws {
    let laptop = try machine("laptop", batches: 2)
    let desktop = try machine("desktop", batches: 2)
    try laptop.expectSuccess("sync", "--compact")  // a snapshot, and laptop's batches deleted
    let result = try desktop.run("check", "--remote", "usb")
    #expect(result.exitCode == 0, "\(result)")
    #expect(
      result.stdout.hasPrefix("No damage found: checked ")
        && result.stdout.hasSuffix("; 2 batches and 1 snapshot on 'usb'\n"), "\(result)")
    let compacted = try laptop.run("check", "--remote", "usb")
    #expect(compacted.exitCode == 0, "its own batches are covered by its snapshot: \(compacted)")
  }

  @Test func aDamagedBatchAGapAndAMissingPushedBatchAreEachNamed() throws {
    let laptop = try machine("laptop", batches: 3)
    let desktop = try machine("desktop", batches: 3)
    try laptop.expectSuccess("sync")
    let laptopID = try CheckCommandTests.deviceID(of: laptop)
    let desktopID = try CheckCommandTests.deviceID(of: desktop)
    let own = remote + "/devices/" + laptopID + "/"
    // Laptop's batch 1 vanishes, its batch 2 is cut short, and desktop's batch 2 vanishes.
    try FileManager.default.removeItem(atPath: own + "0000000001.batch")
    let second = try Data(contentsOf: URL(fileURLWithPath: own + "0000000002.batch"))
    try second.prefix(second.count / 2).write(to: URL(fileURLWithPath: own + "0000000002.batch"))
    try FileManager.default.removeItem(
      atPath: remote + "/devices/" + desktopID + "/0000000002.batch")

    let result = try laptop.run("check", "--remote", "usb")
    #expect(result.exitCode == 65, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "remote 'usb': devices/\(laptopID)/0000000002.batch: it does not decode: "
          + "truncated: it does not end with a complete line"), "\(result)")
    #expect(
      lines.contains {
        $0.hasPrefix("remote 'usb': batch 1 that this machine pushed is not there")
      }, "\(result)")
    #expect(
      lines.contains {
        $0.hasPrefix("remote 'usb': batch 2 of device \(desktopID.prefix(40))")
          && $0.contains("missing")
      },
      "\(result)")
    #expect(lines.last?.hasPrefix("Damage found: 3 problems;") == true, "\(result)")
    let (_, object) = try CheckCommandTests.checkJSON(laptop, "--remote", "usb")
    #expect(
      CheckCommandTests.problems(object).map(\.code).sorted() == ["damaged", "gap", "missing"],
      "\(object)")
  }

  @Test func aValidBatchThatIsNotTheOnePushedIsNamed() throws {
    let laptop = try machine("laptop", batches: 2)
    let path =
      remote + "/devices/" + (try CheckCommandTests.deviceID(of: laptop)) + "/0000000002.batch"
    var batch = try BatchCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    // Still a valid batch 2 of this device, but not the bytes this machine pushed.
    batch.created += 1
    try Data(BatchCodec.encode(batch)).write(to: URL(fileURLWithPath: path))
    let result = try laptop.run("check", "--remote", "usb")
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stdout.contains(
        "devices/\(try CheckCommandTests.deviceID(of: laptop))/0000000002.batch: it is not the "
          + "batch 2 this machine pushed"), "\(result)")
  }

  @Test func aForeignBatchAndStrayFilesAreNamedWithoutControlCharacters() throws {
    let laptop = try machine("laptop", batches: 2)
    let own = remote + "/devices/" + (try CheckCommandTests.deviceID(of: laptop)) + "/"
    // A valid batch 9 of this device, which made 2: another log shares its id.
    var batch = try BatchCodec.decode(
      Array(try Data(contentsOf: URL(fileURLWithPath: own + "0000000002.batch"))))
    batch.seq = 9
    try Data(BatchCodec.encode(batch)).write(to: URL(fileURLWithPath: own + "0000000009.batch"))
    // A file-syncing tool's conflict copy, and a folder whose name would colour the terminal.
    try Data("x".utf8).write(to: URL(fileURLWithPath: own + "0000000001.sync-conflict.batch"))
    try FileManager.default.createDirectory(
      atPath: remote + "/devices/\u{1B}[31mevil\u{9B}2J", withIntermediateDirectories: false)

    let result = try laptop.run("check", "--remote", "usb")
    #expect(result.exitCode == 65, "\(result)")
    #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{9B}"), "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasSuffix(
          "/0000000009.batch: this log made only 2 batches, so another log wrote "
            + "this one under this device's id (was the log copied to another machine, or restored from an older copy?)"
        )
      },
      "\(result)")
    #expect(
      lines.contains {
        $0.hasSuffix(
          "/0000000001.sync-conflict.batch: it is not named like a batch, so no sync reads it")
      }, "\(result)")
    #expect(
      lines.contains("remote 'usb': devices/?[31mevil?2J: it is not a device's folder of batches"),
      "\(result)")
    #expect(
      lines.last?.hasPrefix("Damage found: 3 problems;") == true,
      "no gap below the foreign batch: \(result)")
  }

  @Test func anEncryptedFolderRemoteIsOpenedWithTheKeptKey() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let passphrase = folder.file("passphrase")
    try Data("correct horse battery staple\n".utf8).write(to: URL(fileURLWithPath: passphrase))
    try laptop.expectSuccess(
      "remote", "add", "usb", remote, "--encrypt", "--passphrase-file", passphrase)
    _ = try laptop.add("snack", "quince", "--at", "2026-12-01 10:00")
    try laptop.expectSuccess("sync")
    _ = try laptop.add("snack", "pear", "--at", "2026-12-01 11:00")
    try laptop.expectSuccess("sync", "--compact")
    _ = try laptop.add("snack", "plum", "--at", "2026-12-01 12:00")
    try laptop.expectSuccess("sync")
    let clean = try laptop.run("check", "--remote", "usb")
    #expect(clean.exitCode == 0, "\(clean)")
    #expect(clean.stdout.hasSuffix("; 1 batch and 1 snapshot on 'usb'\n"), "\(clean)")

    let path =
      remote + "/devices/" + (try CheckCommandTests.deviceID(of: laptop)) + "/0000000003.batch"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes[bytes.count / 2] ^= 1
    try bytes.write(to: URL(fileURLWithPath: path))
    let tampered = try laptop.run("check", "--remote", "usb")
    #expect(tampered.exitCode == 65, "\(tampered)")
    #expect(
      tampered.stdout.contains("0000000003.batch: it does not open: it fails authentication"),
      "\(tampered)")
  }

  @Test func aMissingFolderRemoteExits69AfterTheLogIsChecked() throws {
    let laptop = try machine("laptop", batches: 1)
    try FileManager.default.moveItem(atPath: remote, toPath: remote + "-away")
    let result = try laptop.run("check", "--remote", "usb")
    #expect(result.exitCode == 69, "\(result)")
    #expect(result.stdout.hasPrefix("No damage found in the log: checked 1 entry"), "\(result)")
    #expect(result.stdout.hasSuffix("; 'usb' could not be checked\n"), "\(result)")
    #expect(result.stderr.hasPrefix("Error: The remote '\(remote)' is unavailable"), "\(result)")
    let (code, object) = try CheckCommandTests.checkJSON(laptop, "--remote", "usb")
    #expect(code == 69)
    #expect(
      object["ok"] as? Bool == false && (object["error"] as? String)?.contains(remote) == true,
      "\(object)")
    #expect(!FileManager.default.fileExists(atPath: remote), "check re-created the remote")
  }
}

extension CheckCommandTests {
  /// The device id `lifelog status` shows for a machine.
  static func deviceID(of machine: SyncMachine) throws -> String {
    let status = try machine.expectSuccess("status", "--format", "json")
    let object = try #require(try SyncMachine.objects(inJSON: status.stdout).first)
    return try #require(object["device"] as? String)
  }
}
