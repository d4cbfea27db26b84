import Foundation
import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// The PostgreSQL store where several connections (as several server processes) write at once.
///
/// The HTTP tests run on it as well (`LIFELOG_TEST_STORE=postgres`, done by `make test`).
@Suite(
  .enabled(if: PostgresCluster.isInstalled, "PostgreSQL is not installed (apt install postgresql)"))
struct PostgresStoreTests {
  let url: String
  let alice: Int64

  init() throws {
    url = try PostgresCluster.shared().newDatabase()
    alice = try PostgresStore(url: url).addUser(name: "alice", tokenSHA256: "a").id
  }

  func incoming(_ device: String, _ seq: Int, note: String = "") -> IncomingBatch {
    let bytes = SampleBatches.batch(device: device, seq: seq, note: note)
    return IncomingBatch(user: alice, device: device, seq: seq, bytes: bytes, rows: 3)
  }

  /// A batch committed late under a smaller cursor is never passed by a reader.
  ///
  /// The case a sequence would get wrong: A takes a cursor, B takes a larger one and commits
  /// while A is still open, a reader passes B, then A commits below the reader's cursor. Here B
  /// waits for A (the user's row lock), so whatever the timing the reader gets both.
  @Test func aSlowTransactionsBatchIsNeverPassedByAReader() throws {
    nonisolated(unsafe) let slow = try PostgresStore(url: url)
    nonisolated(unsafe) let fast = try PostgresStore(url: url)
    let reader = try PostgresStore(url: url)
    let inside = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    let outcomes = Outcomes()
    DispatchQueue.global().async(group: done) {
      let outcome = try? slow.store([incoming("slow", 1)]) {
        inside.signal()
        release.wait()
      }
      outcomes.append(outcome?.first)
    }
    inside.wait()
    DispatchQueue.global().async(group: done) {
      outcomes.append(try? fast.store([incoming("fast", 1)]).first)
    }
    // Pull as a client would while the slow transaction is open, then let it commit.
    var cursor = ServerCursor()
    var seen: [String] = []
    func pull() throws {
      let page = try reader.changes(
        user: alice, after: cursor, excluding: nil, limits: PageLimits())
      seen += page.items.map(\.device)
      cursor = page.cursor
    }
    for _ in 0..<20 {
      try pull()
      usleep(10_000)
    }
    release.signal()
    done.wait()
    try pull()
    #expect(seen.sorted() == ["fast", "slow"], "the reader saw \(seen)")
    let cursors = outcomes.all.compactMap { outcome -> Int64? in
      if case .created(let cursor)? = outcome { return cursor }
      return nil
    }
    #expect(cursors.sorted() == [1, 2])
  }

  @Test func theSamePushFromTwoProcessesAtOnceIsStoredOnce() throws {
    nonisolated(unsafe) let stores = try (0..<4).map { _ in try PostgresStore(url: url) }
    let outcomes = Outcomes()
    DispatchQueue.concurrentPerform(iterations: stores.count) { index in
      outcomes.append(try? stores[index].store([incoming("phone", 1)]).first)
      outcomes.append(try? stores[index].store([incoming("phone", 2, note: "\(index)")]).first)
    }
    let all = outcomes.all
    #expect(all.filter { if case .created? = $0 { true } else { false } }.count == 2)
    #expect(all.filter { if case .exists? = $0 { true } else { false } }.count == 3)
    #expect(all.filter { $0 == .conflict }.count == 3)
    #expect(try stores[0].batchCount(user: alice, device: "phone") == (2, 2))
  }

  @Test func onlyOneOfTwoProcessesWinsAKeyEnvelopeVersion() throws {
    nonisolated(unsafe) let stores = try (0..<2).map { _ in try PostgresStore(url: url) }
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      results.append(
        try? stores[index].putKeyEnvelope(user: alice, version: 1, bytes: [UInt8(index)]))
    }
    #expect(results.all.sorted { "\($0!)" < "\($1!)" } == [.conflict, .created])
    #expect(try stores[0].putKeyEnvelope(user: alice, version: 3, bytes: [9]) == .conflict)
    #expect(try stores[0].latestKeyEnvelope(user: alice)?.version == 1)
  }

  /// A backend ended under the server is replaced at once; a database that takes no
  /// connections is 503 with Retry-After, and served again once it is back.
  @Test func aLostConnectionIsRetriedAndAnUnreachableDatabaseIs503UntilItIsBack() throws {
    let pool = try StorePool(location: .postgres(url: url))
    let admin = try PostgresStore(url: try PostgresCluster.shared().url("postgres"))
    let database = String(url.split(separator: "/").last ?? "")
    func endBackends() throws {
      try admin.connection.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database])
    }
    try endBackends()
    #expect(try pool.withStore { try $0.user(id: alice)?.name } == "alice")

    try admin.connection.execute("ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
    try endBackends()
    #expect {
      try pool.withStore { try $0.user(id: alice) }
    } throws: { error in
      (error as? HTTPError)?.status == 503 && (error as? HTTPError)?.retryAfter != nil
    }
    try admin.connection.execute("ALTER DATABASE \(database) ALLOW_CONNECTIONS true")
    #expect(try pool.withStore { try $0.user(id: alice)?.name } == "alice")
  }

  /// Group commit with several rounds at once (as the server runs it on PostgreSQL): every push
  /// gets its own outcome, handed over under the committer's lock (run under TSan too).
  @Test func concurrentGroupCommitsInSeveralRoundsGiveEveryPushItsOutcome() throws {
    let pool = try StorePool(location: .postgres(url: url))
    let committer = BatchCommitter(pool: pool, rounds: SyncServer.postgresCommitRounds)
    let outcomes = Outcomes()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for seq in 1...10 {
        outcomes.append(try? committer.store(incoming("device-\(thread)", seq)))
      }
    }
    let cursors = outcomes.all.compactMap { outcome -> Int64? in
      if case .created(let cursor)? = outcome { return cursor }
      return nil
    }
    #expect(cursors.count == 80)
    #expect(Set(cursors).count == 80)
  }

  @Test func aDamagedStoredCopyIsReplacedByTheRightBytes() throws {
    let store = try PostgresStore(url: url)
    try StoreRepairCheck.run(on: store, user: alice) { bytes in
      try store.connection.query(
        "UPDATE batches SET bytes = $1::bytea WHERE user_id = $2", [bytes, alice])
    }
  }

  @Test func aVersion1SchemaIsMigratedInPlaceAndANewerOneIsRefused() throws {
    let older = try PostgresCluster.shared().newDatabase()
    let connection = try PostgresConnection(url: older)
    try connection.execute(
      """
      CREATE TABLE lifelog_server_migrations (version integer PRIMARY KEY, applied bigint NOT NULL);
      INSERT INTO lifelog_server_migrations VALUES (1, 0);
      """ + PostgresStore.migrations[0])
    let store = try PostgresStore(url: older)
    let bob = try store.addUser(name: "bob", tokenSHA256: "b").id
    #expect(try store.putKeyEnvelope(user: bob, version: 1, bytes: [1]) == .created)
    #expect(
      try connection.query("SELECT max(version)::bigint FROM lifelog_server_migrations").int(0, 0)
        == PostgresStore.schemaVersion)

    try connection.execute("INSERT INTO lifelog_server_migrations VALUES (99, 0)")
    #expect {
      try PostgresStore(url: older)
    } throws: { error in
      guard case .newerSchema? = error as? ServerStoreError else { return false }
      return "\(error)".contains("upgrade lifelog")
    }
  }

  @Test func aPasswordNeverAppearsInAnError() throws {
    let port = try PostgresCluster.shared().port
    #expect {
      try PostgresStore(url: "postgres://postgres:s3cret@127.0.0.1:\(port)/no_such_database")
    } throws: { error in
      let text = "\(error)"
      return !text.contains("s3cret") && text.contains("postgres://postgres:***@127.0.0.1")
    }
  }
}

/// What is printed of a store URL, and the timeouts every connection gets (no cluster needed).
@Suite struct PostgresURLTests {
  @Test func passwordsAreMaskedWhereverTheyAre() {
    #expect(PostgresStore.redacted("postgres://u:pw@db:5432/l") == "postgres://u:***@db:5432/l")
    #expect(
      PostgresStore.redacted("postgres://u@db/l?sslmode=require&password=pw")
        == "postgres://u@db/l?sslmode=require&password=***")
    #expect(PostgresStore.redacted("host=db password=pw") == "<not a postgres:// URL>")
    #expect(PostgresStore.redacted("postgres://u@db/l") == "postgres://u@db/l")
  }

  @Test func timeoutsAreAddedUnlessTheURLSetsThem() {
    let added = PostgresConnection.withTimeouts("postgres://u@db/l")
    #expect(added.hasPrefix("postgres://u@db/l?connect_timeout=5&"))
    #expect(added.contains("tcp_user_timeout=15000"))
    let kept = PostgresConnection.withTimeouts("postgres://u@db/l?connect_timeout=30")
    #expect(kept.contains("connect_timeout=30&keepalives_idle=30"))
    #expect(!kept.contains("connect_timeout=5"))
  }
}

/// Key-envelope outcomes collected from several threads.
final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [PutOutcome?] = []
  func append(_ result: PutOutcome?) { lock.withLock { results.append(result) } }
  var all: [PutOutcome?] { lock.withLock { results } }
}
