import Foundation
import LifelogCore
import LifelogProtocol
import LifelogSync
import LifelogTestSupport
import Testing

@Suite struct FileRemoteTests {
  let folder = TemporaryDirectory()

  private func batch(device: String = "dev-a", seq: Int, note: String = "x") -> [UInt8] {
    BatchCodec.encode(
      Batch(
        device: device, seq: seq, created: 1,
        changes: [
          RowChange(
            entity: .setting, id: "name", values: [.text(note)], stamps: FieldStamps(count: 1))
        ]))
  }

  @Test func aMissingOrEmptyFolderBecomesANewRemoteAndASecondAddJoinsIt() throws {
    let remote = try FileRemote(url: "file://" + folder.file("r"))
    let (manifest, created) = try remote.createOrJoin(minimumVersion: "0.2.0")
    #expect(created)
    #expect(FileManager.default.fileExists(atPath: folder.file("r/lifelog-remote.json")))
    let (joined, createdAgain) = try FileRemote(url: folder.file("r/")).createOrJoin(
      minimumVersion: "0.2.0")
    #expect(!createdAgain)
    #expect(joined == manifest)
  }

  @Test func aFolderWithOtherFilesIsNotTakenOver() throws {
    try FileManager.default.createDirectory(
      atPath: folder.file("photos"), withIntermediateDirectories: true)
    try "x".write(toFile: folder.file("photos/cat.jpg"), atomically: true, encoding: .utf8)
    #expect(throws: SyncError.self) {
      try FileRemote(url: folder.file("photos")).createOrJoin(minimumVersion: "0.2.0")
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.file("photos")) == ["cat.jpg"])
  }

  @Test func aVanishedOrEmptiedRemoteIsUnavailableAndNotRecreated() throws {
    let remote = try FileRemote(url: folder.file("r"))
    _ = try remote.createOrJoin(minimumVersion: "0.2.0")
    try FileManager.default.removeItem(atPath: folder.file("r/lifelog-remote.json"))
    #expect(throws: SyncError.self) { try remote.manifest() }
    try FileManager.default.removeItem(atPath: folder.file("r"))
    let error = try #require(throws: SyncError.self) { try remote.manifest() }
    #expect(error.description.contains(folder.file("r")))
    #expect(!FileManager.default.fileExists(atPath: folder.file("r")))
  }

  @Test func pushingIsIdempotentAndNeverOverwritesADifferentBatch() throws {
    let remote = try FileRemote(url: folder.file("r"))
    _ = try remote.createOrJoin(minimumVersion: "0.2.0")
    try remote.push(device: "dev-a", seq: 1, bytes: batch(seq: 1))
    try remote.push(device: "dev-a", seq: 1, bytes: batch(seq: 1))
    #expect(throws: SyncError.self) {
      try remote.push(device: "dev-a", seq: 1, bytes: batch(seq: 1, note: "other"))
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.file("r/devices/dev-a"))
    #expect(names == ["0000000001.batch"])
  }

  @Test func aDamagedCopyOfOwnBatchIsRepairedByPushingAgain() throws {
    let remote = try FileRemote(url: folder.file("r"))
    _ = try remote.createOrJoin(minimumVersion: "0.2.0")
    let bytes = batch(seq: 1)
    try Data(bytes.prefix(20)).write(
      to: URL(fileURLWithPath: folder.file("r/devices/dev-a/0000000001.batch")).creatingFolder())
    try remote.push(device: "dev-a", seq: 1, bytes: bytes)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder.file("r/devices/dev-a/0000000001.batch")))
        == Data(bytes))
  }

  @Test func pullingStopsAtADamagedBatchAndReadsItOnceRepaired() throws {
    let remote = try FileRemote(url: folder.file("r"))
    _ = try remote.createOrJoin(minimumVersion: "0.2.0")
    for seq in 1...3 { try remote.push(device: "dev-a", seq: seq, bytes: batch(seq: seq)) }
    let path = folder.file("r/devices/dev-a/0000000002.batch")
    let good = try Data(contentsOf: URL(fileURLWithPath: path))
    try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: path))
    try Data("junk".utf8).write(
      to: URL(fileURLWithPath: folder.file("r/devices/dev-a/.tmp-1.part")))
    let first = try remote.pull(after: "", excluding: "me", rowLimit: 10)
    #expect(first.batches.map(\.batch.seq) == [1])
    #expect(first.skipped.count == 1)
    #expect(first.skipped[0].contains("0000000002.batch"))
    let stuck = try remote.pull(after: first.cursor, excluding: "me", rowLimit: 10)
    #expect(stuck.batches.isEmpty)
    try good.write(to: URL(fileURLWithPath: path))
    let resumed = try remote.pull(after: first.cursor, excluding: "me", rowLimit: 10)
    #expect(resumed.batches.map(\.batch.seq) == [2, 3])
    #expect(resumed.skipped.isEmpty)
  }

  @Test func pagesRespectTheLimitAndSkipTheReadersOwnBatches() throws {
    let remote = try FileRemote(url: folder.file("r"))
    _ = try remote.createOrJoin(minimumVersion: "0.2.0")
    for seq in 1...5 { try remote.push(device: "dev-a", seq: seq, bytes: batch(seq: seq)) }
    try remote.push(device: "me", seq: 1, bytes: batch(device: "me", seq: 1))
    let page = try remote.pull(after: "", excluding: "me", rowLimit: 2)
    #expect(page.batches.map(\.batch.seq) == [1, 2])
    #expect(page.more)
    let rest = try remote.pull(after: page.cursor, excluding: "me", rowLimit: 10)
    #expect(rest.batches.map(\.batch.seq) == [3, 4, 5])
    #expect(!rest.more)
  }

  @Test func aPageAlsoEndsAfter16MiBOfBatchesHoweverFewTheirRows() throws {
    let remote = try FileRemote(url: folder.file("r"))
    _ = try remote.createOrJoin(minimumVersion: "0.2.0")
    let big = String(repeating: "x", count: 9 << 20)
    for seq in 1...3 {
      try remote.push(device: "dev-a", seq: seq, bytes: batch(seq: seq, note: big))
    }
    let page = try remote.pull(after: "", excluding: "me", rowLimit: 5_000)
    #expect(page.batches.map(\.batch.seq) == [1, 2])
    #expect(page.more)
    let rest = try remote.pull(after: page.cursor, excluding: "me", rowLimit: 5_000)
    #expect(rest.batches.map(\.batch.seq) == [3])
    #expect(!rest.more)
  }

  @Test func compactionDeletesOnlyCoveredBatchesOfOneDevice() throws {
    let remote = try FileRemote(url: folder.file("r"))
    _ = try remote.createOrJoin(minimumVersion: "0.2.0")
    for seq in 1...4 { try remote.push(device: "dev-a", seq: seq, bytes: batch(seq: seq)) }
    try remote.push(device: "dev-b", seq: 1, bytes: batch(device: "dev-b", seq: 1))
    try remote.deleteBatches(device: "dev-a", through: 3)
    #expect(try remote.batchCount(device: "dev-a") == 1)
    #expect(try remote.batchCount(device: "dev-b") == 1)
  }
}

extension URL {
  fileprivate func creatingFolder() throws -> URL {
    try FileManager.default.createDirectory(
      at: deletingLastPathComponent(), withIntermediateDirectories: true)
    return self
  }
}
