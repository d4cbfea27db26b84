import LifelogCore
import LifelogProtocol

/// A remote that can hand `lifelog check` everything it stores, one file at a time.
///
/// Not part of ``Remote``: a sync never needs it, and each kind of remote lists its files its own
/// way (a folder's names, a server's pages from the start).
protocol InventoriedRemote: Remote {
  /// Calls ``RemoteCheck/examine(_:place:bytes:)`` for each batch and snapshot stored, and
  /// ``RemoteCheck/unreadable(_:place:reason:)`` or ``RemoteCheck/stray(place:reason:)`` for what
  /// cannot be read or is not lifelog's.
  ///
  /// - Throws: ``SyncError`` when the remote as a whole cannot be read (exit 69).
  func inventory(into check: RemoteCheck, deadline: Deadline) throws
}

/// `lifelog check --remote NAME` (docs/cli.md): reads every batch and snapshot on one remote
/// without writing anything, and finds what would stop or mislead a sync.
///
/// * every batch and snapshot decodes (or opens, when sealed with the data key this log keeps);
/// * each device's seqs have no gap above what its snapshots cover;
/// * every batch this machine pushed and the remote acknowledged is there, byte for byte what the
///   outbox holds (sealing is deterministic, so a sealed batch can be compared too), or covered by
///   a snapshot; and the remote holds no batch of this device that this log never made.
public final class RemoteCheck {
  let record: RemoteRecord
  let store: SyncStore
  let device: String
  /// The last batch made here, read again when a newer one shows up (a sync may be running).
  var lastSeq: Int
  /// `remote 'usb'`: how findings name the remote.
  let remotePlace: String
  /// Called with the number of files read so far.
  let progress: (Int) -> Void
  public private(set) var report = CheckReport()
  /// The seqs stored per device, read or not (a damaged batch is no gap).
  private var stored: [String: Set<Int>] = [:]
  /// The highest seq of each device that a snapshot which opened covers.
  private var covered: [String: Int] = [:]
  private var files = 0

  public init(
    record: RemoteRecord, store: SyncStore, progress: @escaping (Int) -> Void = { _ in }
  ) throws {
    self.record = record
    self.store = store
    self.progress = progress
    device = try store.deviceID
    lastSeq = try store.lastSeq()
    remotePlace = "remote \(CheckText.quoted(record.name))"
    report.count("remote batches", 0)
    report.count("remote snapshots", 0)
  }

  /// Checks `remote` (made from ``record``) within `seconds`.
  ///
  /// - Throws: ``SyncError`` when the remote cannot be reached or read as a whole, holds a
  ///   different remote, or its encryption does not match this log's.
  public func run(_ remote: any Remote, seconds: Int?) throws -> CheckReport {
    let deadline = Deadline(seconds: seconds, now: LogStore.systemMilliseconds)
    try remote.manifest().expectJoined(
      by: record, at: remote.location, checkingVersion: false,
      ifEncrypted:
        "is encrypted, but this log joined it unencrypted, so its batches cannot be opened here",
      ifNotEncrypted:
        "no longer says it is encrypted, but this log holds its key: it may have been tampered with or replaced"
    )
    guard let inventoried = remote as? any InventoriedRemote else {
      throw SyncError.remoteUnavailable(
        remote.location, reason: "lifelog cannot check this kind of remote")
    }
    if let dataKey = record.dataKey { try checkKeys(remote, dataKey: dataKey) }
    try inventoried.inventory(into: self, deadline: deadline)
    findMissing()
    return report
  }

  /// The newest key envelope must still wrap this log's data key, or machines joining with the
  /// passphrase would seal with another key.
  private func checkKeys(_ remote: any Remote, dataKey: [UInt8]) throws {
    try Sodium.load()
    do {
      guard let keys = try remote.keys() else {
        report.add(
          remotePlace, "keys",
          "it holds no key envelope, so no machine can join it with the passphrase")
        return
      }
      if try !keys.opens(with: dataKey) {
        report.add(
          remotePlace, "keys",
          "its newest key envelope (version \(keys.version)) does not hold this log's key")
      }
    } catch SyncError.remoteUnavailable(_, let reason) {
      report.add(remotePlace, "keys", reason)
    }
  }

  // MARK: - What an inventory reports

  /// One stored batch or snapshot, `place` saying where it is.
  ///
  /// - Returns: whether it decoded (or opened).
  @discardableResult
  func examine(_ name: BatchEnvelope.Name, place: String, bytes: [UInt8]) -> Bool {
    note(name)
    let opened: Batch
    do {
      opened = try record.envelope.open(bytes, name: name)
    } catch {
      report.add(
        "\(remotePlace): \(place)", "damaged",
        "it does not \(record.envelope.isSealed ? "open" : "decode"): \(error)")
      return false
    }
    switch name {
    case .batch(let device, let seq):
      if device == self.device {
        compareWithOutbox(seq: seq, name: name, bytes: bytes, place: place)
      }
    case .snapshot:
      for (device, seq) in opened.covers.seqs { covered[device] = max(covered[device] ?? 0, seq) }
    }
    return true
  }

  /// A batch or snapshot that is there but cannot be read at all.
  func unreadable(_ name: BatchEnvelope.Name, place: String, reason: String) {
    note(name)
    report.add("\(remotePlace): \(place)", "damaged", "it cannot be read: \(reason)")
  }

  /// Something that is not a batch or snapshot where only those belong (a file-syncing tool's
  /// conflict copy, a folder named like a batch).
  func stray(place: String, reason: String) {
    report.add("\(remotePlace): \(place)", "stray", reason)
  }

  /// A problem with the remote as a whole that still lets the check go on.
  func problem(_ code: String, _ what: String) {
    report.add(remotePlace, code, what)
  }

  private func note(_ name: BatchEnvelope.Name) {
    switch name {
    case .batch(let device, let seq):
      stored[device, default: []].insert(seq)
      report.count("remote batches")
    case .snapshot:
      report.count("remote snapshots")
    }
    files += 1
    progress(files)
  }

  // MARK: - This machine's batches

  private func compareWithOutbox(seq: Int, name: BatchEnvelope.Name, bytes: [UInt8], place: String)
  {
    if seq > lastSeq, let latest = try? store.lastSeq() { lastSeq = latest }
    guard seq <= lastSeq else {
      report.add(
        "\(remotePlace): \(place)", "foreign",
        "this log made only \(lastSeq) batches, so another log wrote this one under this device's id "
          + "(was the log copied to another machine, or restored from an older copy?)")
      return
    }
    // A batch missing from the outbox is the local check's finding.
    guard let pushed = try? store.outbox(after: seq - 1, limit: 1).first, pushed.seq == seq,
      let expected = try? record.envelope.seal(pushed.bytes, name: name)
    else { return }
    if expected != bytes {
      report.add(
        "\(remotePlace): \(place)", "differs",
        "it is not the batch \(seq) this machine pushed (the outbox holds other bytes under that number)"
      )
    }
  }

  // MARK: - Gaps

  /// Seqs missing above what snapshots cover: gaps in other devices' batches, and this device's
  /// acknowledged batches that are gone.
  private func findMissing() {
    var devices = Set(stored.keys)
    if record.pushedSeq > 0 { devices.insert(device) }
    for other in devices.sorted() {
      let floor = covered[other] ?? 0
      let isOwn = other == device
      // This device's batches past the last acknowledged may not have arrived yet (a sync that
      // stopped between sending and hearing back), and those past the last made are `foreign`.
      let top = isOwn ? record.pushedSeq : Int.max
      var next = floor + 1
      for seq in (stored[other] ?? []).filter({ $0 > floor && $0 <= top }).sorted() {
        if seq > next { reportMissing(other, next, seq - 1, own: isOwn) }
        next = seq + 1
      }
      if isOwn, top >= next { reportMissing(other, next, top, own: true) }
    }
  }

  private func reportMissing(_ device: String, _ first: Int, _ last: Int, own: Bool) {
    let batches = CheckText.range(first, last)
    let (are, them) = first == last ? ("is", "it") : ("are", "them")
    if own {
      report.add(
        remotePlace, "missing",
        "\(batches) that this machine pushed \(are) not there, and no snapshot there covers \(them); "
          + "'lifelog remote remove' and 'lifelog remote add' the remote again to send \(them) once more"
      )
    } else {
      report.add(
        remotePlace, "gap",
        "\(batches) of device \(CheckText.shown(device)) \(are) missing, and no snapshot there covers \(them): "
          + "machines that have not merged \(them) cannot get \(them) from here")
    }
  }
}
