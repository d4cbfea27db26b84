import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogProtocol
import LifelogSQLite
import LifelogSync
import LifelogTestSupport
import Testing

/// The clock rule and "gaps are never passed over" (docs/sync-protocol.md §2, §6), met as a user
/// meets them: the real binary on both machines, a real folder remote or a real `lifelog serve`,
/// and a remote that lies — a crafted batch stamped far ahead, a page that leaves a batch out, a
/// stored batch that no longer reads.
@Suite struct HeldBatchTests {
  let folder = TemporaryDirectory(prefix: "lifelog-held-e2e")

  /// A device id no machine in the test has.
  static let stranger = "ffffffff-0000-4000-8000-00000000beef"

  // MARK: - A stamp far ahead

  /// Milliseconds of the crafted stamps: the largest a stamp holds, and two years from now.
  static let farStamps: [Int64] = [
    Stamp.maximumMilliseconds, LogStore.systemMilliseconds() + 2 * 365 * 86_400_000,
  ]

  @Test(arguments: farStamps)
  func aBatchStampedFarAheadInAFolderIsHeldAndLaterEditsStillSyncAndWin(milliseconds: Int64) throws
  {
    let remote = folder.file("remote")
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    let id = try laptop.add("breakfast", "oatmeal", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    try laptop.expectSuccess("sync")
    try desktop.expectSuccess("remote", "add", "usb", remote)
    try desktop.expectSuccess("sync")

    // A stranger's batch that rewrites the entry's note, every field stamped far ahead.
    try writeFarAheadBatch(editing: id, of: laptop, milliseconds: milliseconds, into: remote)
    let held = try desktop.expectSuccess("sync")
    #expect(
      held.stderr.contains("Warning: held back batch 1 of device \(Self.stranger): stamped "),
      "\(held)")
    #expect(held.stderr.contains("ahead of this machine's clock"), "\(held)")
    let status = try desktop.expectSuccess("status")
    #expect(status.stdout.contains("  Held back, not merged yet"), "\(status)")
    #expect(status.stdout.contains("    batch 1 of device \(Self.stranger): stamped "), "\(status)")
    #expect(status.stdout.contains("check the clock of that device"), "\(status)")
    let json = try #require(
      try SyncMachine.objects(inJSON: desktop.expectSuccess("status", "--format", "json").stdout)
        .first)
    let remotes = try #require(json["remotes"] as? [[String: Any]])
    let heldJSON = remotes.first?["held"] as? [[String: Any]] ?? []
    #expect(heldJSON.count == 1 && heldJSON.first?["reason"] as? String == "ahead", "\(json)")
    #expect((heldJSON.first?["aheadMinutes"] as? Int ?? 0) > 365 * 24 * 60, "\(json)")

    // The desktop's later edit still reaches the laptop and wins there; the far value is applied
    // nowhere.
    try desktop.expectSuccess("edit", String(id.prefix(8)), "--note", "porridge")
    try desktop.expectSuccess("sync")
    try laptop.expectSuccess("sync")
    for machine in [laptop, desktop] {
      #expect(try machine.entries()[id]?["note"] as? String == "porridge", "\(machine.name)")
      try expectSaneClock(machine)
    }
  }

  /// A snapshot stamped far ahead, named newest, is passed over: an older sound snapshot still
  /// brings what it covers to a new machine, and only the far one's own device waits.
  @Test func aSnapshotStampedFarAheadIsPassedOverForAnOlderOneInAFolder() throws {
    let remote = folder.file("remote")
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    let id = try laptop.add("breakfast", "oatmeal", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    try laptop.expectSuccess("sync", "--compact")
    let laptopID = try deviceID(of: laptop)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: remote + "/devices/" + laptopID)
        .filter { $0.hasSuffix(".batch") }.isEmpty,
      "the laptop's batches are compacted into its snapshot")

    // A stranger's snapshot, named newest, that also covers the laptop's batch and rewrites its
    // entry with stamps two years ahead.
    let far = LogStore.systemMilliseconds() + 2 * 365 * 86_400_000
    let change = try farAheadChange(editing: id, of: laptop, milliseconds: far)
    let bytes = BatchCodec.encode(
      Batch(
        kind: .snapshot, device: Self.stranger, seq: 0, created: far,
        covers: VersionVector([Self.stranger: 1, laptopID: 1]), changes: [change]))
    let name = "\(far)-\(Self.stranger)-0000beef"
    try Data(bytes).write(to: URL(fileURLWithPath: remote + "/snapshots/\(name).snapshot"))

    try desktop.expectSuccess("remote", "add", "usb", remote)
    let synced = try desktop.expectSuccess("sync")
    #expect(
      synced.stderr.contains("Warning: held back snapshot \(name): stamped "), "\(synced)")
    #expect(try desktop.entries()[id]?["note"] as? String == "oatmeal", "\(synced)")
    let status = try desktop.expectSuccess("status")
    #expect(status.stdout.contains("    snapshot \(name): stamped "), "\(status)")
    try expectSaneClock(desktop)
  }

  @Test func aMachineWhoseClockRanAheadSaysSoInStatus() throws {
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("status")
    let plain = try laptop.expectSuccess("status")
    #expect(!plain.stdout.contains("ahead of the wall clock"), "\(plain)")
    // Its clock once ran two years ahead and was set right; the hybrid clock is persisted.
    let database = try Database(path: laptop.databasePath, mode: .readWrite)
    try database.execute(
      sql: "UPDATE sync_device SET clock_ms = ?",
      arguments: [LogStore.systemMilliseconds() + 2 * 365 * 86_400_000 + 3_600_000])
    let status = try laptop.expectSuccess("status")
    #expect(
      status.stdout.contains(
        "Warning: this machine's clock is 2 years ahead of the wall clock; "
          + "other machines hold back its changes until then"), "\(status)")
    let json = try #require(
      try SyncMachine.objects(inJSON: laptop.expectSuccess("status", "--format", "json").stdout)
        .first)
    #expect((json["clockAheadMinutes"] as? Int ?? 0) > 2 * 365 * 24 * 60, "\(json)")
  }

  /// Every stamp in the log is 28 wide and the clock is within an hour of the wall clock.
  private func expectSaneClock(
    _ machine: SyncMachine, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let database = try Database(path: machine.databasePath, mode: .readOnly)
    var stamps: [String] = []
    for table in ["entry", "activity", "setting"] {
      try database.makeStatement(sql: "SELECT stamps FROM \(table) WHERE stamps != ''").forEachRow {
        row in
        stamps += (row[0] as String).split(separator: ",").map(String.init)
      }
    }
    #expect(
      stamps.allSatisfy { Stamp.isValid($0) }, "\(machine.name): \(stamps)",
      sourceLocation: sourceLocation)
    let clock: Int64 =
      try database.makeStatement(sql: "SELECT clock_ms FROM sync_device").first { $0[0] } ?? 0
    #expect(
      clock <= LogStore.systemMilliseconds() + Stamp.aheadLimit,
      "\(machine.name)'s clock was dragged ahead",
      sourceLocation: sourceLocation)
  }

  /// Writes `devices/<stranger>/0000000001.batch`: the entry `id` of `machine` with the note
  /// "from the future", every field stamped at `milliseconds`.
  private func writeFarAheadBatch(
    editing id: String, of machine: SyncMachine, milliseconds: Int64, into remote: String
  ) throws {
    let change = try farAheadChange(editing: id, of: machine, milliseconds: milliseconds)
    let bytes = BatchCodec.encode(
      Batch(
        device: Self.stranger, seq: 1, created: LogStore.systemMilliseconds(), changes: [change]))
    let directory = remote + "/devices/" + Self.stranger
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: directory + "/0000000001.batch"))
  }

  /// The entry `id` of `machine` with the note "from the future", every field stamped at
  /// `milliseconds` by the stranger.
  private func farAheadChange(
    editing id: String, of machine: SyncMachine, milliseconds: Int64
  ) throws -> RowChange {
    let entry = try #require(try LogStore(path: machine.databasePath).entry(id: id))
    let stamp = Stamp.make(
      milliseconds: milliseconds, counter: Stamp.maximumCounter, device: Self.stranger)
    return RowChange(
      entity: .entry, id: id,
      values: [
        .text(entry.activityID), .time(entry.time), .null, .text("from the future"), .null,
        .tags([]), .null,
        .flag(false),
      ],
      stamps: FieldStamps(count: SyncedEntity.entry.fields.count, stamp: stamp))
  }

  // MARK: - A server that leaves a batch out, or serves one that does not read

  @Test(.enabled(if: !PostgresCluster.selected, "edits the SQLite store"))
  func aBatchTheServerLeavesOutIsNotLostAndItsDeleteIsAppliedOnceServed() throws {
    let (server, _, laptop, desktop) = try twoMachinesOnAServer()
    let id = try laptop.add("breakfast", "oatmeal", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess("sync")  // batch 1
    try desktop.expectSuccess("sync")
    try laptop.expectSuccess("delete", String(id.prefix(8)))
    try laptop.expectSuccess("sync")  // batch 2: the delete
    let later = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    try laptop.expectSuccess("sync")  // batch 3
    let device = try deviceID(of: laptop)

    // The server's pages leave batch 2 out.
    try store(of: server) { database in
      try database.execute(
        sql: "CREATE TABLE hidden AS SELECT * FROM batches WHERE device = ? AND seq = 2",
        arguments: [device])
      try database.execute(
        sql: "DELETE FROM batches WHERE device = ? AND seq = 2", arguments: [device])
    }
    let gap = try desktop.expectSuccess("sync")
    #expect(
      gap.stderr.contains("Warning: held back batch 2 of device \(device): missing"), "\(gap)")
    // Batch 3 waits behind the gap: nothing of that device passes it.
    #expect(try desktop.entries()[later] == nil)
    #expect(try desktop.entries()[id] != nil)
    let status = try desktop.expectSuccess("status")
    #expect(status.stdout.contains("    batch 2 of device \(device): missing"), "\(status)")

    // Served again: the next sync takes batch 2 and the one behind it.
    try store(of: server) { database in
      try database.execute(sql: "INSERT INTO batches SELECT * FROM hidden")
    }
    let healed = try desktop.expectSuccess("sync")
    #expect(healed.stderr.isEmpty, "\(healed)")
    #expect(try desktop.entries()[id] == nil, "the delete was lost")
    #expect(try desktop.entries(deleted: true)[id] != nil)
    #expect(try desktop.entries()[later] != nil)
    #expect(!(try desktop.expectSuccess("status").stdout.contains("Held back")))
  }

  @Test(.enabled(if: !PostgresCluster.selected, "edits the SQLite store"))
  func anUnreadableBatchHoldsOnlyItsDeviceAndIsReadAgainOnTheNextSync() throws {
    let (server, token, laptop, desktop) = try twoMachinesOnAServer()
    let phone = SyncMachine("phone", in: folder)
    try join(phone, server, token: token)
    let breakfast = try laptop.add("breakfast", "oatmeal", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess("sync")
    let walk = try phone.add("walk", "--duration", "30m", "--at", "2026-12-01 17:00")
    try phone.expectSuccess("sync")
    let device = try deviceID(of: laptop)

    // The laptop's stored batch no longer matches its checksum.
    var good: [UInt8] = []
    try store(of: server) { database in
      good =
        try database.makeStatement(sql: "SELECT bytes FROM batches WHERE device = ? AND seq = 1")
        .first([device]) { $0[0] } ?? []
      var bad = good
      bad[bad.count / 2] ^= 0x20
      try database.execute(
        sql: "UPDATE batches SET bytes = ? WHERE device = ? AND seq = 1", arguments: [bad, device])
    }
    let damaged = try desktop.expectSuccess("sync")
    #expect(damaged.stderr.contains("Warning: skipped \(device)/1"), "\(damaged)")
    // The phone's batch, later in the same page, is merged all the same.
    #expect(try desktop.entries()[walk] != nil, "one unreadable batch stopped every device")
    #expect(try desktop.entries()[breakfast] == nil)
    let status = try desktop.expectSuccess("status")
    #expect(status.stdout.contains("    batch 1 of device \(device): unreadable ("), "\(status)")

    try store(of: server) { database in
      try database.execute(
        sql: "UPDATE batches SET bytes = ? WHERE device = ? AND seq = 1", arguments: [good, device])
    }
    let repaired = try desktop.expectSuccess("sync")
    #expect(repaired.stderr.isEmpty, "\(repaired)")
    #expect(try desktop.entries()[breakfast] != nil, "the batch was not read again")
    #expect(!(try desktop.expectSuccess("status").stdout.contains("Held back")))
  }

  // MARK: - Helpers

  /// A server with one user, and two machines that joined it as 'home'.
  private func twoMachinesOnAServer() throws -> (ServerProcess, String, SyncMachine, SyncMachine) {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    let token = try server.addUser("alice")
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    for machine in [laptop, desktop] { try join(machine, server, token: token) }
    return (server, token, laptop, desktop)
  }

  private func join(_ machine: SyncMachine, _ server: ServerProcess, token: String) throws {
    let joined = try LifelogProcess.run(
      ["remote", "add", "home", server.baseURL],
      environment: machine.environment.merging(["LIFELOG_TOKEN": token]) { $1 })
    try #require(joined.exitCode == 0, "\(joined)")
  }

  private func deviceID(of machine: SyncMachine) throws -> String {
    let status = try #require(
      try SyncMachine.objects(inJSON: machine.expectSuccess("status", "--format", "json").stdout)
        .first)
    return try #require(status["device"] as? String)
  }

  /// Edits the server's SQLite store while it runs, as a buggy server or a damaged disk would.
  private func store(of server: ServerProcess, _ edit: (Database) throws -> Void) throws {
    let database = try Database(path: server.dataFolder + "/server.db", mode: .readWrite)
    try edit(database)
  }
}
