import Foundation
import LifelogCore
import LifelogProtocol
import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogServer

@Suite struct ServerStoreTests {
  let store: SQLiteServerStore
  let alice: Int64
  let bob: Int64
  let reader = "reader-device"
  let writer = "writer-device"

  init() throws {
    store = try SQLiteServerStore(path: ":memory:")
    alice = try store.addUser(name: "alice", tokenSHA256: SHA256.hexDigest(Array("a".utf8))).id
    bob = try store.addUser(name: "bob", tokenSHA256: SHA256.hexDigest(Array("b".utf8))).id
  }

  func incoming(
    _ user: Int64, _ device: String, _ seq: Int, rows: Int = 3, note: String = ""
  ) -> IncomingBatch {
    let bytes = SampleBatches.batch(device: device, seq: seq, rows: rows, note: note)
    return IncomingBatch(user: user, device: device, seq: seq, bytes: bytes, rows: rows)
  }

  @Test func usersAreFoundByTheHashOfTheirTokenOnly() throws {
    #expect(try store.user(tokenSHA256: SHA256.hexDigest(Array("a".utf8)))?.name == "alice")
    #expect(try store.user(tokenSHA256: "a") == nil)
    #expect(throws: InputError.self) { try store.addUser(name: "alice", tokenSHA256: "x") }
    #expect(throws: InputError.self) { try store.addUser(name: "../x", tokenSHA256: "y") }
    try store.setToken(name: "alice", tokenSHA256: "new")
    #expect(try store.user(tokenSHA256: SHA256.hexDigest(Array("a".utf8))) == nil)
    #expect(try store.user(tokenSHA256: "new")?.id == alice)
  }

  @Test func keyEnvelopesCountUpOneVersionAtATimeAndGoWithTheirUser() throws {
    #expect(try store.latestKeyEnvelope(user: alice) == nil)
    #expect(try store.putKeyEnvelope(user: alice, version: 1, bytes: [1]) == .created)
    #expect(try store.putKeyEnvelope(user: alice, version: 1, bytes: [1]) == .exists)
    #expect(try store.putKeyEnvelope(user: alice, version: 1, bytes: [2]) == .conflict)
    #expect(try store.putKeyEnvelope(user: alice, version: 3, bytes: [3]) == .conflict)
    #expect(try store.putKeyEnvelope(user: alice, version: 2, bytes: [2]) == .created)
    #expect(try store.latestKeyEnvelope(user: alice) == KeyEnvelope(version: 2, bytes: [2]))
    #expect(try store.latestKeyEnvelope(user: bob) == nil)
    try store.removeUser(name: "alice")
    _ = try store.addUser(name: "alice", tokenSHA256: "again")
    let again = try #require(try store.user(named: "alice"))
    #expect(try store.latestKeyEnvelope(user: again.id) == nil)
    #expect(
      try store.database.cachedStatement(sql: "SELECT count(*) FROM key_envelopes").first {
        $0[0] as Int
      } == 0)
  }

  /// A symbolic link planted at the database's path is refused, not followed.
  @Test func aLinkAtTheDatabasesPathIsRefused() throws {
    let folder = TemporaryDirectory(prefix: "server-link")
    let target = folder.file("elsewhere.db")
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("server.db"), withDestinationPath: target)
    #expect {
      try SQLiteServerStore(folder: folder.path)
    } throws: { error in
      guard case .cannotOpen(_, let reason) = error as? ServerStoreError else { return false }
      return reason.contains("symbolic link")
    }
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  @Test func aVersion1DatabaseIsMigratedInPlace() throws {
    let folder = TemporaryDirectory(prefix: "server-migrate")
    let path = folder.file("server.db")
    do {
      let database = try Database(path: path, mode: .create, busyTimeoutMilliseconds: 1000)
      try database.execute(sql: SQLiteServerStore.migrations[0])
      try database.execute(sql: "PRAGMA user_version = 1")
      try database.execute(
        sql:
          "INSERT INTO users (name, token_sha256, remote_id, created) VALUES ('old', 'h', 'r', 0)")
    }
    let migrated = try SQLiteServerStore(path: path)
    let old = try #require(try migrated.user(named: "old"))
    #expect(try migrated.putKeyEnvelope(user: old.id, version: 1, bytes: [9]) == .created)
    #expect(
      try migrated.database.cachedStatement(sql: "PRAGMA user_version").first { $0[0] as Int }
        == SQLiteServerStore.schemaVersion)
  }

  /// A migration to version 3 keeps every cursor: made as version 2 stored them (one counter
  /// shared by all users), then opened by this lifelog.
  @Test func aVersion2DatabaseGetsPerUserCursorsAndKeepsEveryCursorAClientHolds() throws {
    let folder = TemporaryDirectory(prefix: "server-migrate-3")
    let path = folder.file("server.db")
    do {
      let database = try Database(path: path, mode: .create, busyTimeoutMilliseconds: 1000)
      for step in SQLiteServerStore.migrations.prefix(2) { try database.execute(sql: step) }
      try database.execute(sql: "PRAGMA user_version = 2")
      try database.execute(
        sql: """
          INSERT INTO users (id, name, token_sha256, remote_id, created)
          VALUES (1, 'alice', 'a', 'ra', 0), (2, 'bob', 'b', 'rb', 0), (3, 'carol', 'c', 'rc', 0)
          """)
      // As version 2 stored them: cursors 1…6 from one AUTOINCREMENT, the users interleaved.
      let insert = try database.cachedStatement(
        sql: """
          INSERT INTO batches (user_id, device, seq, trailer, size, rows, received, bytes)
          VALUES (?, ?, ?, ?, ?, 3, 0, ?)
          """)
      for (user, seq) in [(1, 1), (2, 1), (1, 2), (2, 2), (2, 3), (1, 3)] {
        let batch = incoming(Int64(user), writer, seq)
        try insert.execute([
          Int64(user), writer, seq, batch.trailer, batch.bytes.count, batch.bytes,
        ])
      }
    }
    let migrated = try SQLiteServerStore(path: path)
    #expect(
      try migrated.database.cachedStatement(sql: "PRAGMA user_version").first { $0[0] as Int }
        == SQLiteServerStore.schemaVersion)
    // Alice's cursors are where they were; a client that had passed her cursor 3 misses nothing.
    let all = try migrated.changes(
      user: 1, after: ServerCursor(), excluding: nil, limits: PageLimits())
    #expect(all.items.map(\.cursor) == [1, 3, 6])
    #expect(try migrated.store([incoming(1, writer, 4)]) == [.created(cursor: 7)])
    #expect(try migrated.store([incoming(2, writer, 4)]) == [.created(cursor: 6)])
    #expect(try migrated.store([incoming(3, writer, 1)]) == [.created(cursor: 1)])
    let after = try migrated.changes(
      user: 1, after: ServerCursor(position: 3), excluding: nil, limits: PageLimits())
    #expect(after.items.map(\.seq) == [3, 4])
    #expect(try migrated.store([incoming(1, writer, 2)]) == [.exists(cursor: 3)])
  }

  /// One user's cursors count their own batches only: another user's pushes never show.
  @Test func aUsersCursorDoesNotMoveWhenAnotherUserPushes() throws {
    #expect(try store.store([incoming(alice, writer, 1)]) == [.created(cursor: 1)])
    for seq in 1...5 { _ = try store.store([incoming(bob, writer, seq)]) }
    #expect(
      try store.store([incoming(alice, writer, 2), incoming(bob, writer, 6)]) == [
        .created(cursor: 2), .created(cursor: 6),
      ])
  }

  /// The right bytes pushed over a damaged copy repair it, under a new cursor; another intact
  /// batch under the name is still 409, and the same bytes again 200.
  @Test func aDamagedStoredCopyIsReplacedByTheRightBytes() throws {
    try StoreRepairCheck.run(on: store, user: alice) { bytes in
      try store.database.execute(
        sql: "UPDATE batches SET bytes = ? WHERE user_id = ?", arguments: [bytes, alice])
    }
  }

  @Test func aNameKeepsItsFirstBatch() throws {
    let first = try store.store([
      incoming(alice, writer, 1), incoming(alice, writer, 1), incoming(alice, writer, 1, note: "x"),
    ])
    guard case .created(let cursor) = first[0] else { Issue.record("\(first)"); return }
    #expect(first[1] == .exists(cursor: cursor))
    #expect(first[2] == .conflict)
    #expect(try store.store([incoming(bob, writer, 1, note: "x")])[0] != .conflict)
  }

  @Test func pagesFollowTheCursorSkipTheReaderAndStayWithinTheirLimits() throws {
    for seq in 1...6 {
      _ = try store.store([
        incoming(alice, writer, seq, rows: 10), incoming(alice, reader, seq),
        incoming(bob, writer, seq),
      ])
    }
    var cursor = ServerCursor()
    var seen: [Int] = []
    var pages = 0
    repeat {
      let page = try store.changes(
        user: alice, after: cursor, excluding: reader, limits: PageLimits(rows: 25))
      #expect(page.items.allSatisfy { $0.device == writer })
      #expect(page.items.map(\.rows).reduce(0, +) <= 25)
      seen += page.items.map(\.seq)
      cursor = page.cursor
      pages += 1
      if !page.more { break }
    } while pages < 10
    #expect(seen == [1, 2, 3, 4, 5, 6])
    #expect(pages == 3)
    let single = try store.changes(
      user: alice, after: ServerCursor(), excluding: reader, limits: PageLimits(rows: 1))
    #expect(single.items.count == 1 && single.more)
    let bytes = try store.changes(
      user: alice, after: ServerCursor(), excluding: reader, limits: PageLimits(bytes: 1))
    #expect(bytes.items.count == 1)
  }

  @Test func aLongRunOfSkippedRecordsEndsThePageEarly() throws {
    for seq in 1...30 { _ = try store.store([incoming(alice, reader, seq)]) }
    _ = try store.store([incoming(alice, writer, 1)])
    let page = try store.changes(
      user: alice, after: ServerCursor(), excluding: reader, limits: PageLimits(scanned: 10))
    #expect(page.items.isEmpty && page.more)
    #expect(page.cursor.position > 0)
  }

  @Test func compactionNeedsASnapshotAndReadersMergeItBeforePassing() throws {
    for seq in 1...4 { _ = try store.store([incoming(alice, writer, seq)]) }
    #expect(throws: HTTPError.self) {
      try store.deleteBatches(user: alice, device: writer, through: 2)
    }
    let snapshot = SampleBatches.snapshot(device: writer, covers: [writer: 2])
    let header = try BatchCodec.decode(snapshot)
    _ = try store.storeSnapshot(
      user: alice, name: "1-\(writer)", header: header, bytes: snapshot, sha256: "s1")
    #expect(try store.deleteBatches(user: alice, device: writer, through: 2) == 2)
    #expect(try store.batchCount(user: alice, device: writer) == (2, 4))

    let blocked = try store.changes(
      user: alice, after: ServerCursor(), excluding: reader, limits: PageLimits())
    #expect(blocked.items.isEmpty && blocked.needsSnapshot)
    let offered = try #require(
      try store.latestSnapshot(user: alice, beyond: ServerCursor(), excluding: reader))
    #expect(offered.covers == VersionVector([writer: 2]))
    let merged = ServerCursor().merging(offered, excluding: reader)
    let rest = try store.changes(
      user: alice, after: merged, excluding: reader, limits: PageLimits())
    #expect(rest.items.map(\.seq) == [3, 4])
    #expect(try store.latestSnapshot(user: alice, beyond: rest.cursor, excluding: reader) == nil)
    #expect(try store.latestSnapshot(user: alice, beyond: ServerCursor(), excluding: writer) == nil)
    #expect(try store.latestSnapshot(user: bob, beyond: ServerCursor(), excluding: reader) == nil)
  }

  @Test func aNewerSnapshotOfADeviceReplacesTheOnesItCovers() throws {
    for (name, seq) in [("1", 2), ("2", 5)] {
      let bytes = SampleBatches.snapshot(device: writer, covers: [writer: seq])
      _ = try store.storeSnapshot(
        user: alice, name: name, header: try BatchCodec.decode(bytes), bytes: bytes,
        sha256: SHA256.hexDigest(bytes))
    }
    #expect(try store.snapshotRecord(user: alice, name: "1") == nil)
    #expect(try store.snapshotRecord(user: alice, name: "2")?.covers == VersionVector([writer: 5]))
  }

  @Test func removingAUserRemovesTheirDataOnly() throws {
    _ = try store.store([incoming(alice, writer, 1), incoming(bob, writer, 1)])
    #expect(try store.removeUser(name: "alice") == (1, 0))
    #expect(try store.users().map(\.name) == ["bob"])
    #expect(try store.batchCount(user: bob, device: writer).count == 1)
  }

  /// A pull checks its token and reads its page in one read (``ServerStorage/reading(_:)``):
  /// what another connection commits in between is seen by neither, so the two agree.
  @Test func aTokenCheckAndAPageInOneReadSeeOneSnapshot() throws {
    let folder = TemporaryDirectory(prefix: "lifelog-reading")
    let path = folder.path + "/server.db"
    let reading = try SQLiteServerStore(path: path)
    let other = try SQLiteServerStore(path: path)
    let carol = try other.addUser(name: "carol", tokenSHA256: "old").id
    let pushed = incoming(carol, writer, 1)
    let reader = reader
    let (before, page) = try reading.reading {
      let before = try reading.user(tokenSHA256: "old")
      try other.setToken(name: "carol", tokenSHA256: "new")
      _ = try other.store([pushed])
      let page = try reading.changes(
        user: carol, after: ServerCursor(), excluding: reader, limits: PageLimits())
      return (before, page)
    }
    #expect(before?.id == carol)
    #expect(page.items.isEmpty)
    #expect(try reading.user(tokenSHA256: "old") == nil)
    let later = try reading.changes(
      user: carol, after: ServerCursor(), excluding: reader, limits: PageLimits())
    #expect(later.items.count == 1)
  }
}

@Suite struct BatchCommitterTests {
  @Test func concurrentPushesAllCommitWithDistinctCursors() throws {
    let folder = TemporaryDirectory(prefix: "lifelog-commit")
    let pool = try StorePool(location: .folder(folder.path))
    let user = try pool.withStore { try $0.addUser(name: "alice", tokenSHA256: "t").id }
    let committer = BatchCommitter(pool: pool)
    let outcomes = Outcomes()
    let threads = (0..<8).map { thread in
      Thread {
        for seq in 1...25 {
          let bytes = SampleBatches.batch(device: "device-\(thread)", seq: seq)
          let batch = IncomingBatch(
            user: user, device: "device-\(thread)", seq: seq, bytes: bytes, rows: 3)
          outcomes.append(try? committer.store(batch))
        }
        outcomes.finish()
      }
    }
    threads.forEach { $0.start() }
    outcomes.wait(for: 8)
    let cursors = outcomes.all.compactMap { outcome -> Int64? in
      if case .created(let cursor)? = outcome { return cursor }
      return nil
    }
    #expect(cursors.count == 200)
    #expect(Set(cursors).count == 200)
  }
}
