import LifelogCore
import LifelogProtocol
import LifelogSync
import LifelogTestSupport
import Testing

/// Sealing batches and snapshots, and the key envelope (docs/sync-protocol.md, docs/security.md).
@Suite struct BatchEnvelopeTests {
  static let remoteID = "5b0e3c1a-0000-4000-8000-00000000c0de"
  /// The suite's keys, made once because Argon2id takes about 0.1 s.
  ///
  /// Made in a `Result`, so a failure fails the tests that read it instead of trapping the test
  /// process.
  static let created = Result { () throws(SyncError) in
    try RemoteKeys.create(remoteID: remoteID, passphrase: Array("unit test passphrase".utf8))
  }
  static var keys: (keys: RemoteKeys, dataKey: [UInt8], recoveryKey: [UInt8]) {
    get throws { try created.get() }
  }
  static var sealed: BatchEnvelope {
    get throws { BatchEnvelope.sealed(remoteID: remoteID, dataKey: try keys.dataKey) }
  }

  @Test func aSealedBatchOpensUnderItsOwnNameOnly() throws {
    let plain = SampleBatches.batch(device: "dev-1", seq: 2, note: "secret soup")
    let bytes = try BatchEnvelopeTests.sealed.seal(plain, name: .batch(device: "dev-1", seq: 2))
    #expect(!String(decoding: bytes, as: UTF8.self).contains("secret soup"))
    // Deterministic: a batch sent again is the same bytes, which a remote takes as a no-op.
    #expect(
      try BatchEnvelopeTests.sealed.seal(plain, name: .batch(device: "dev-1", seq: 2)) == bytes)
    #expect(
      try BatchEnvelopeTests.sealed.open(bytes, name: .batch(device: "dev-1", seq: 2))
        == BatchCodec.decode(plain))

    #expect(throws: BatchError.self) {
      try BatchEnvelopeTests.sealed.open(bytes, name: .batch(device: "dev-1", seq: 3))
    }
    #expect(throws: BatchError.self) {
      try BatchEnvelopeTests.sealed.open(bytes, name: .batch(device: "dev-2", seq: 2))
    }
    let otherRemote = BatchEnvelope.sealed(
      remoteID: "another", dataKey: try BatchEnvelopeTests.keys.dataKey)
    #expect(throws: BatchError.self) {
      try otherRemote.open(bytes, name: .batch(device: "dev-1", seq: 2))
    }
    #expect(throws: BatchError.self) {
      try BatchEnvelope.plain.open(bytes, name: .batch(device: "dev-1", seq: 2))
    }
    #expect(throws: BatchError.self) {
      try BatchEnvelopeTests.sealed.open(plain, name: .batch(device: "dev-1", seq: 2))
    }
  }

  @Test func aRewrittenHeaderOrAnyChangedByteFailsAuthentication() throws {
    let bytes = try BatchEnvelopeTests.sealed.seal(
      SampleBatches.batch(device: "dev-1", seq: 1), name: .batch(device: "dev-1", seq: 1))
    var renamed = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    renamed = renamed.replacingOccurrences(of: "\"seq\":1,", with: "\"seq\":9,")
    let replayed = Array(renamed.utf8) + bytes.drop { $0 != 0x0A }
    #expect(throws: BatchError.self) {
      try BatchEnvelopeTests.sealed.open(replayed, name: .batch(device: "dev-1", seq: 9))
    }
    for index in stride(from: 0, to: bytes.count, by: 7) {
      var changed = bytes
      changed[index] ^= 0x20
      #expect(throws: BatchError.self) {
        try BatchEnvelopeTests.sealed.open(changed, name: .batch(device: "dev-1", seq: 1))
      }
    }
    for length in stride(from: 0, to: bytes.count, by: 11) {
      #expect(throws: BatchError.self) {
        try BatchEnvelopeTests.sealed.open(
          Array(bytes.prefix(length)), name: .batch(device: "dev-1", seq: 1))
      }
    }
  }

  @Test func aSnapshotOpensOnlyUnderTheNameItWasSealedFor() throws {
    let plain = SampleBatches.snapshot(device: "dev-1", covers: ["dev-1": 4, "dev-2": 2])
    let bytes = try BatchEnvelopeTests.sealed.seal(plain, name: .snapshot("0001-a"))
    let header = try SealedHeader(bytes)  // what a server reads without the key
    #expect(
      header.batch.covers == VersionVector(["dev-1": 4, "dev-2": 2])
        && header.name == .snapshot("0001-a"))
    #expect(
      try BatchEnvelopeTests.sealed.open(bytes, name: .snapshot("0001-a")).covers
        == header.batch.covers)
    #expect(throws: BatchError.self) {
      try BatchEnvelopeTests.sealed.open(bytes, name: .snapshot("0002-b"))
    }
  }

  @Test func theKeyEnvelopeOpensWithThePassphraseOrTheRecoveryKeyAndSurvivesAChange() throws {
    let (keys, dataKey, recoveryKey) = try BatchEnvelopeTests.keys
    let read = try RemoteKeys(bytes: keys.bytes)
    #expect(read == keys)
    #expect(try read.dataKey(passphrase: Array("unit test passphrase".utf8)) == dataKey)
    #expect(try read.dataKey(passphrase: Array("unit test passphrasE".utf8)) == nil)
    #expect(try read.dataKey(recoveryKey: recoveryKey) == dataKey)
    #expect(RecoveryKeyText.parse(RecoveryKeyText.format(recoveryKey)) == recoveryKey)

    let next = try read.rewrapped(dataKey: dataKey, passphrase: Array("the next one".utf8))
    #expect(next.version == 2)
    #expect(try next.dataKey(passphrase: Array("unit test passphrase".utf8)) == nil)
    #expect(try next.dataKey(passphrase: Array("the next one".utf8)) == dataKey)
    #expect(try next.dataKey(recoveryKey: recoveryKey) == dataKey)
    let opensWithDataKey = try next.opens(with: dataKey)
    let opensWithRecoveryKey = try next.opens(with: recoveryKey)
    #expect(opensWithDataKey && !opensWithRecoveryKey)
  }

  @Test func twoPassphraseChangesAtOnceCannotBothWin() throws {
    let folder = TemporaryDirectory(prefix: "lifelog-keys")
    let remote = try FileRemote(url: folder.file("r"))
    let (keys, dataKey, _) = try BatchEnvelopeTests.keys
    let manifest = try remote.create(
      remoteID: BatchEnvelopeTests.remoteID, minimumVersion: "0.2.0", keys: keys)
    let read = try remote.manifest()
    #expect(manifest.encrypted && read.encrypted)
    let mine = try keys.rewrapped(dataKey: dataKey, passphrase: Array("mine is first".utf8))
    let theirs = try keys.rewrapped(dataKey: dataKey, passphrase: Array("theirs came later".utf8))
    try remote.putKeys(mine)
    #expect(throws: SyncError.keysChanged(remote.root)) { try remote.putKeys(theirs) }
    #expect(try remote.keys() == mine)
  }
}
