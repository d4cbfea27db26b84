import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

@testable import LifelogSync

/// The decisions a folder remote and a WebDAV remote share (`BatchPage`, `SnapshotChoice`,
/// `KeyEnvelopeFiles`, `RemoteManifest+File`), on names and bytes given directly: each remote's
/// own suites (FileRemoteTests, HostileFolderTests, DAVRemoteTests, DAVSyncTests) cover the I/O.
@Suite struct RemoteFileDecisionsTests {
  private func page(rowLimit: Int = 5_000) -> BatchPage {
    BatchPage(
      cursor: "{}", vector: VersionVector(), rowLimit: rowLimit,
      rules: PullRules(merged: nil, wall: nil), envelope: .plain)
  }

  @Test func aMissingBatchIsAGapOnlyWhenALaterOneIsListedByAName() {
    let names = ["0000000001.batch", "0000000003.batch", "4.batch", "9223372036854775807.batch"]
    #expect(BatchPage.isGap(2, among: names))
    #expect(!BatchPage.isGap(3, among: names), "4.batch and a number past 2^31 are no batches")
    #expect(!BatchPage.isGap(1, among: [String]()))
  }

  @Test func batchesAreTakenInOrderAndTheFirstBadOneIsHeld() {
    var page = page()
    #expect(page.next(of: "dev-a") == 1)
    let first = page.take(SampleBatches.batch(device: "dev-a", seq: 1), of: "dev-a", path: "p1")
    #expect(first)
    #expect(page.vector["dev-a"] == 1)
    // Bytes of another seq do not open under this name: held, named, the vector stays.
    let second = page.take(SampleBatches.batch(device: "dev-a", seq: 3), of: "dev-a", path: "p2")
    #expect(!second)
    #expect(page.vector["dev-a"] == 1)
    #expect(page.page.held.map(\.seq) == [2])
    #expect(page.page.skipped.count == 1 && page.page.skipped[0].hasPrefix("p2: "))
    page.holdMissing("dev-b")
    #expect(page.page.held.last == HeldBatch(device: "dev-b", seq: 1, reason: .missing))
    let finished = page.finished(cursor: "next")
    #expect(finished.cursor == "next" && finished.batches.count == 1 && !finished.more)
  }

  @Test func aPageIsFullAtItsRowLimitAndThenSaysMoreWaits() {
    var page = page(rowLimit: 3)
    let fullBefore = page.isFull()
    #expect(!fullBefore)
    let taken = page.take(
      SampleBatches.batch(device: "dev-a", seq: 1, rows: 3), of: "dev-a", path: "")
    #expect(taken)
    let fullAfter = page.isFull()
    #expect(fullAfter)
    #expect(page.page.more)
  }

  @Test func snapshotsAreTriedNewestFirstAndOnlyWhenTheyHoldSomethingNew() throws {
    let files = SnapshotChoice.newestFirst(
      ["a.snapshot", ".c.snapshot", "b.snapshot", "0000000001.batch"])
    #expect(files.map(\.file) == ["b.snapshot", "a.snapshot"])
    #expect(files.map(\.name) == ["b", "a"])
    let bytes = SampleBatches.snapshot(device: "dev-a", covers: ["dev-a": 2, "dev-b": 1])
    let line = Array(bytes.prefix { $0 != 0x0A }) + [0x0A]
    #expect(try SnapshotChoice.holdsNew(header: line, beyond: VersionVector(), excluding: "dev-c"))
    let reached = VersionVector(["dev-a": 2, "dev-b": 1])
    #expect(!(try SnapshotChoice.holdsNew(header: line, beyond: reached, excluding: "dev-c")))
    // What the reader wrote itself is not news to it.
    let own = VersionVector(["dev-b": 1])
    #expect(!(try SnapshotChoice.holdsNew(header: line, beyond: own, excluding: "dev-a")))
    #expect(throws: BatchError.self) {
      try SnapshotChoice.holdsNew(header: Array("junk\n".utf8), beyond: own, excluding: "dev-a")
    }
  }

  @Test func keyEnvelopesAreNamedPaddedAndTheNewestCounts() throws {
    #expect(KeyEnvelopeFiles.name(2) == "0000000002.json")
    #expect(KeyEnvelopeFiles.path(2) == "keys/0000000002.json")
    #expect(KeyEnvelopeFiles.newest(among: ["0000000001.json", "0000000002.json", "3.json"]) == 2)
    #expect(KeyEnvelopeFiles.newest(among: ["lifelog-remote.json"]) == nil)
    #expect(throws: SyncError.self) {
      try KeyEnvelopeFiles.decode(Array("{}".utf8), path: "keys/x", at: "r")
    }
  }

  @Test func aManifestReadsBackAsWrittenAndJunkIsNone() {
    for encrypted in [false, true] {
      let manifest = RemoteManifest(
        remoteID: "3F2504E0-4F89-11D3-9A0C-0305E82C3301", minimumVersion: "0.9.0",
        encrypted: encrypted)
      #expect(RemoteManifest(fileBytes: manifest.fileBytes) == manifest)
      #expect(manifest.fileBytes.last == 0x0A)
    }
    #expect(RemoteManifest(fileBytes: Array(#"{"lifelog":"server"}"#.utf8)) == nil)
    #expect(RemoteManifest(fileBytes: [0xFF, 0x00]) == nil)
  }

  @Test func aBatchAlreadyThereIsDoneJunkIsReplacedAndAnotherBatchIsAConflict() throws {
    let bytes = SampleBatches.batch(device: "dev-a", seq: 1)
    let name = BatchEnvelope.Name.batch(device: "dev-a", seq: 1)
    let envelope = BatchEnvelope.plain
    #expect(try envelope.isPushed(bytes, as: bytes, seq: 1, name: name, path: "p"))
    #expect(
      !(try envelope.isPushed(bytes, as: Array(bytes.prefix(20)), seq: 1, name: name, path: "p")))
    let other = SampleBatches.batch(device: "dev-a", seq: 1, note: "another log")
    #expect(
      throws: SyncError.conflict(
        "The remote already holds a different batch 1 of this device at 'p'")
    ) {
      try envelope.isPushed(bytes, as: other, seq: 1, name: name, path: "p")
    }
  }
}
