import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogSQLite
import LifelogTestSupport
import Testing

/// One set of limits on both sides of the wire, met through a real `lifelog serve` and real
/// `lifelog sync` clients: the server refuses a seq the clients would refuse, and a record out of
/// range that a store still holds holds back only its own device (docs/security.md).
@Suite struct WireRangeSyncTests {
  let folder = TemporaryDirectory(prefix: "lifelog-wire-range")
  static let hugeSeq = 999_999_999_999_999

  @Test func aHugeSeqIsRefusedAndOneThatAStoreHoldsHoldsBackOnlyItsDevice() throws {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    let token = try server.addUser("alice")
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    for machine in [laptop, desktop] {
      let joined = try LifelogProcess.run(
        ["remote", "add", "home", server.baseURL],
        environment: machine.environment.merging(["LIFELOG_TOKEN": token]) { $1 })
      try #require(joined.exitCode == 0, "\(joined)")
    }
    let breakfast = try laptop.add("breakfast", "oatmeal", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess("sync")

    // The server refuses the seq a client would refuse, with 400, and stores nothing.
    let stranger = UUIDText.random()
    let client = HTTPTestClient(baseURL: server.baseURL, token: token)
    let refused = try client.put(
      "/v1/batches/\(stranger)/\(Self.hugeSeq)",
      SampleBatches.batch(device: stranger, seq: Self.hugeSeq))
    #expect(refused.status == 400, "\(refused.status) \(refused.text)")
    #expect(try client.get("/v1/batches/\(stranger)").text.contains("\"batches\":0"))

    // A hostile store holds one anyway: a copy of the laptop's batch under another device's name.
    guard !PostgresCluster.selected else { return }
    let hostile = UUIDText.random()
    let store = try Database(path: folder.file("data/server.db"), mode: .readWrite)
    try store.execute(
      sql: """
        UPDATE users SET last_cursor = last_cursor + 1;
        INSERT INTO batches (user_id, cursor, device, seq, trailer, size, rows, received, bytes)
          SELECT user_id, (SELECT last_cursor FROM users WHERE id = batches.user_id), '\(hostile)',
            \(Self.hugeSeq), trailer, size, rows, received, bytes FROM batches ORDER BY cursor LIMIT 1;
        """)

    // The desktop still gets the laptop's entry; only the stranger's device is held back.
    let synced = try desktop.expectSuccess("sync")
    #expect(
      synced.stderr.contains(
        "Warning: skipped a batch of \(hostile) from \(server.baseURL): its seq is not a whole "
          + "number from 1 to 2147483647"), "\(synced)")
    #expect(try desktop.entries()[breakfast] != nil, "\(synced)")
    // And the two go on converging: the desktop's entry reaches the laptop.
    let lunch = try desktop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    try desktop.expectSuccess("sync")
    let pulled = try laptop.expectSuccess("sync")
    #expect(try laptop.entries().keys.sorted() == [breakfast, lunch].sorted(), "\(pulled)")
    #expect(try desktop.entries().keys.sorted() == [breakfast, lunch].sorted())
  }
}
