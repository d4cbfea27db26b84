import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogSQLite
import LifelogTestSupport
import Testing

/// `lifelog recover` with the real binary on logs damaged four ways: every row SQLite can still
/// read comes back, the new log is whole, and a later sync pushes what was pending and converges.
@Suite struct RecoverBinaryTests {
  let folder = TemporaryDirectory(prefix: "lifelog-recover-e2e")
  var remote: String { folder.file("usb") }

  enum Damage: String, CaseIterable {
    case pagesZeroed, truncated, headerOverwritten, tornWAL
  }

  /// A laptop with 2,000 entries pushed to `usb` and 40 more pending, its WAL checkpointed into
  /// the file (except for `tornWAL`, where 5 more adds stay in the WAL).
  func laptop(keepingWAL: Bool) throws -> SyncMachine {
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "usb", remote, "--no-encrypt")
    _ = try laptop.addBacklog(2_000, label: "pushed")
    try laptop.expectSuccess("sync")
    _ = try laptop.addBacklog(40, label: "pending", startingAt: 1_790_000_000)
    try Database(path: laptop.databasePath, mode: .readWrite).execute(
      sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    if keepingWAL {
      for index in 0..<5 { _ = try laptop.add("snack", "in the WAL \(index)") }
    }
    return laptop
  }

  /// Damages the log's files the way `damage` says.
  func damage(_ path: String, _ damage: Damage) throws {
    let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    defer { try? file.close() }
    let size = try file.seekToEnd()
    switch damage {
    case .pagesZeroed:
      for page in [size / 4096 / 2, size / 4096 / 2 + 3, size / 4096 - 2] {
        try file.seek(toOffset: page * 4096)
        file.write(Data(count: 4096))
      }
    case .truncated:
      try file.truncate(atOffset: size * 3 / 5)
    case .headerOverwritten:
      try file.seek(toOffset: 0)
      file.write(Data((0..<100).map { UInt8(($0 * 37 + 11) % 256) }))
    case .tornWAL:
      let wal = try FileHandle(forUpdating: URL(fileURLWithPath: path + "-wal"))
      try wal.truncate(atOffset: try wal.seekToEnd() - 1_000)
      try wal.close()
    }
  }

  /// The entry ids SQLite can read one by one from a copy of the damaged files.
  ///
  /// They are what recover must save. `ids` maps each rowid of the undamaged log to its entry's id.
  ///
  /// A truncated file's header still counts the pages cut off, and SQLite then reads nothing:
  /// the copy's count is set to the pages left (recover rebuilds the header the same way).
  func readable(_ path: String, ids: [Int64: String]) throws -> Set<String> {
    let copy = folder.file("probe-\(UUID().uuidString).db")
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    let file = try FileHandle(forUpdating: URL(fileURLWithPath: copy))
    let pages = UInt32(try file.seekToEnd() / 4096)
    try file.seek(toOffset: 28)
    file.write(Data([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: pages >> $0) }))
    try file.close()
    if FileManager.default.fileExists(atPath: path + "-wal") {
      try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
    }
    guard let database = try? Database(path: copy, mode: .readWrite) else { return [] }
    var found: Set<String> = []
    for (rowid, id) in ids {
      let statement = try? database.makeStatement(sql: "SELECT 1 FROM entry WHERE rowid = ?")
      if (try? statement?.first([rowid]) { _ in true }) == true { found.insert(id) }
    }
    return found
  }

  @Test(arguments: Damage.allCases)
  func everyReadableRowIsSavedAndASyncConverges(_ kind: Damage) throws {
    let laptop = try laptop(keepingWAL: kind == .tornWAL)
    let path = laptop.databasePath
    let ids = try Dictionary(
      uniqueKeysWithValues: LogStore(path: path).database.makeStatement(
        sql: "SELECT rowid, lifelog_id_text(id) FROM entry"
      ).map { ($0[0] as Int64, $0[1] as String) })
    try damage(path, kind)
    // The header case is read only once the header is rebuilt; SQLite alone reads nothing.
    let expected =
      kind == .headerOverwritten ? Set(ids.values) : try readable(path, ids: ids)
    #expect(expected.count > 1_000, "the damage left too little to test with: \(expected.count)")

    let result = try laptop.run("recover", "--format", "json")
    #expect(result.exitCode == 0, "\(kind): \(result)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let damaged = try #require(report["damaged"] as? String)
    #expect(damaged.hasPrefix(path + ".damaged-"), "\(report)")
    #expect(FileManager.default.fileExists(atPath: damaged))
    #expect((report["headerRebuilt"] as? Bool) == (kind != .pagesZeroed && kind != .tornWAL))

    let recovered = Set(try laptop.entries().keys)
    #expect(expected.subtracting(recovered).isEmpty, "\(kind): lost readable rows")
    #expect(recovered.isSubset(of: Set(ids.values)), "\(kind): rows that were never there")
    try laptop.expectSuccess("check")

    // The new log syncs as a new device: it pushes what it saved and pulls what the remote holds.
    try laptop.syncUntilQuiet()
    let desktop = SyncMachine("desktop", in: folder)
    try desktop.expectSuccess("remote", "add", "usb", remote, "--no-encrypt")
    try desktop.syncUntilQuiet()
    try laptop.syncUntilQuiet()
    #expect(try laptop.sortedListLines() == desktop.sortedListLines(), "\(kind): not converged")
    let converged = Set(try desktop.entries().keys)
    #expect(recovered.isSubset(of: converged), "\(kind): the desktop misses recovered rows")
    #expect(converged.count >= recovered.count)
  }

  @Test func recoverFromARemoteBringsBackRowsOnDamagedPages() throws {
    let laptop = try laptop(keepingWAL: false)
    let before = Set(try laptop.entries().keys)
    try damage(laptop.databasePath, .pagesZeroed)
    let result = try laptop.run("recover", "--from-remote", "usb")
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stdout.contains("Synced: pulled "), "\(result)")
    let after = Set(try laptop.entries().keys)
    // Every entry pushed before the damage is back; a pending one survives unless it was lost.
    #expect(after.isSubset(of: before))
    #expect(
      before.subtracting(after).isEmpty || before.subtracting(after).count < 40, "\(result)")
    try laptop.expectSuccess("check")
  }

  @Test func whatIsNotALogIsRefusedAndLeftAlone() throws {
    let text = folder.file("notes.db")
    try Data("activity,at\nwalk,2026-01-01T10:00:00Z\n".utf8).write(
      to: URL(fileURLWithPath: text))
    let refused = try LifelogProcess.run(["--db", text, "recover"])
    #expect(refused.exitCode == 78, "\(refused)")
    #expect(refused.stderr.contains("is not a lifelog log"), "\(refused)")
    #expect(try String(contentsOfFile: text, encoding: .utf8).hasPrefix("activity,at"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.db"])

    let missing = try LifelogProcess.run(["--db", folder.file("none.db"), "recover"])
    #expect(missing.exitCode == 66, "\(missing)")
  }

  @Test func checkPointsAtRecoverWhenTheFileIsDamaged() throws {
    let laptop = try laptop(keepingWAL: false)
    try damage(laptop.databasePath, .pagesZeroed)
    let result = try laptop.run("check")
    #expect(result.exitCode == 65, "\(result)")
    #expect(result.stdout.contains("'lifelog recover'"), "\(result)")
  }
}
