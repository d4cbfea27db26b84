import LifelogCore
import LifelogProtocol

/// One sync with one remote (docs/design.md §4): pull and merge, then batch and push local changes,
/// then compact when asked or when this device has left too many batches behind.
///
/// Every step is safe to interrupt: each pulled page is merged in one transaction together with
/// its cursor, each batch is stored locally before it is sent and sent again under the same name
/// until the remote has acknowledged it.
public final class SyncEngine {
  public let store: SyncStore
  /// Milliseconds since 1970 (tests skew it).
  public var wallClock: @Sendable () -> Int64 = LogStore.systemMilliseconds

  /// Rows read per page (a page holds at least one batch); each page is one local transaction.
  public static let pageRows = 5_000
  /// Past this many batches of its own on a remote, a device writes a snapshot and deletes them.
  public static let compactionThreshold = 500
  /// A received stamp this far ahead of the local clock is reported as clock skew.
  public static let skewWarningMilliseconds: Int64 = 5 * 60 * 1000

  public init(store: SyncStore) { self.store = store }

  /// What the last ``sync(_:with:options:)`` did, also when it failed part way: the batches it
  /// merged and pushed before the failure are kept, and a message should say so.
  public private(set) var lastReport: Report?

  public struct Options: Sendable {
    public var compact = false
    /// Seconds the whole sync may take; nil for no limit.
    public var timeout: Int?
    /// The end of a `--timeout` that began before this sync (a command syncing several remotes,
    /// whose transports were given the same end); when set, it is used instead of `timeout`.
    public var deadline: Deadline?
    public init(compact: Bool = false, timeout: Int? = nil, deadline: Deadline? = nil) {
      self.compact = compact
      self.timeout = timeout
      self.deadline = deadline
    }
  }

  public struct Report: Sendable {
    public var remote: String
    public var pulled = 0
    public var pushed = 0
    public var snapshotMerged: String?
    public var snapshotWritten: String?
    public var skipped: [String] = []
    /// Batches and snapshots not merged yet, the first of each device (docs/sync-protocol.md §6).
    public var held: [HeldBatch] = []
    /// How far ahead of this machine the newest received stamp was (ms), when notably so.
    public var clockSkewMilliseconds: Int64?
    /// Local field values that later changes from other machines replaced in this sync.
    public var replaced: [ReplacedField] = []
  }

  /// Syncs with one configured remote.
  public func sync(
    _ record: RemoteRecord, with remote: any Remote, options: Options = Options()
  ) throws -> Report {
    let deadline = options.deadline ?? Deadline(seconds: options.timeout, now: wallClock)
    var report = Report(remote: record.name)
    let run = wallClock()
    do {
      try self.run(
        record, remote: remote, options: options, deadline: deadline, run: run, report: &report)
      report.replaced = try store.log.replacedFields(run: run)
      try store.recordOutcome(
        remote: record.name, at: wallClock(), outcome: "ok",
        skipped: report.skipped.map(remote.secrets.scrubbed),
        held: report.held,
        clockSkewMilliseconds: report.clockSkewMilliseconds ?? 0)
      return report
    } catch {
      lastReport = report
      // Every path that builds a message from a server's words scrubs it; this keeps anything
      // secret out of the log even so.
      try? store.recordOutcome(
        remote: record.name, at: wallClock(), outcome: remote.secrets.scrubbed("failed: \(error)"),
        skipped: report.skipped.map(remote.secrets.scrubbed),
        held: report.held, clockSkewMilliseconds: report.clockSkewMilliseconds)
      throw error
    }
  }

  private func run(
    _ record: RemoteRecord, remote: any Remote, options: Options, deadline: Deadline, run: Int64,
    report: inout Report
  ) throws {
    let device = try store.deviceID
    try deadline.check()
    try remote.manifest().expectJoined(
      by: record, at: remote.location, checkingVersion: true,
      ifEncrypted:
        "is encrypted, but this log joined it unencrypted; 'lifelog remote remove' it and add it again",
      ifNotEncrypted:
        "no longer says it is encrypted, but this log holds its key: it may have been tampered with or "
        + "replaced. Nothing was sent; check the remote, and do not add it again without --encrypt")
    if let dataKey = record.dataKey {
      try Sodium.checkDataKey(dataKey, remote: remote.location)
      try Sodium.load()
    }
    var cursor = record.cursor
    var newest = Stamp.never

    // Snapshots first, while one holds batches the cursor has not reached (a new machine, or one
    // that was away while the batches it missed were compacted). Several devices compact, each
    // deleting only its own batches, so one snapshot may not cover all that was deleted. Each
    // merge moves the cursor past the snapshot's batches, so this ends. The snapshot merged last
    // time is merged again only when that moves the cursor (an HTTP cursor rewound to ask again
    // for a held batch, from before the snapshot); never twice in one sync.
    try deadline.check()
    var merged: Set<String> = []
    var passing: Set<String> = []
    while let snapshot = try remote.snapshot(
      beyond: cursor, excluding: device, passing: passing, skipped: &report.skipped),
      !merged.contains(snapshot.name), snapshot.name != record.snapshot || snapshot.cursor != cursor
    {
      // A snapshot held by the clock rule is passed over, not a stop: an older one may still
      // bring what it covers of the other devices (only the held one's devices wait).
      if let reason = try rules().hold(snapshot.snapshot) {
        hold(
          HeldBatch(
            device: snapshot.snapshot.device, seq: 0, snapshot: snapshot.name, reason: reason),
          in: &report)
        passing.insert(snapshot.name)
        continue
      }
      newest = max(
        newest,
        try store.apply(
          [snapshot.snapshot], remote: record.name, cursor: snapshot.cursor, now: wallClock(),
          run: run))
      try store.setSnapshot(snapshot.name, remote: record.name)
      cursor = snapshot.cursor
      merged.insert(snapshot.name)
      report.snapshotMerged = snapshot.name
      try deadline.check()
    }

    while true {
      try deadline.check()
      let page = try remote.pull(
        after: cursor, excluding: device, rowLimit: SyncEngine.pageRows, rules: rules())
      report.skipped += page.skipped
      for batch in page.held { hold(batch, in: &report) }
      if !page.batches.isEmpty || page.cursor != cursor {
        newest = max(
          newest,
          try store.apply(
            page.batches.map(\.batch), remote: record.name, cursor: page.cursor, now: wallClock(),
            run: run))
        report.pulled += page.batches.count
      }
      cursor = page.cursor
      if !page.more { break }
    }
    if let ms = Stamp.milliseconds(newest), ms - wallClock() > SyncEngine.skewWarningMilliseconds {
      report.clockSkewMilliseconds = ms - wallClock()
    }

    try store.makeBatches(now: wallClock())
    var pushed = record.pushedSeq
    while true {
      let batches = try store.outbox(after: pushed)
      if batches.isEmpty { break }
      for (seq, bytes) in batches {
        try deadline.check()
        try remote.push(device: device, seq: seq, bytes: bytes)
        try store.setPushed(seq, remote: record.name)
        pushed = seq
        report.pushed += 1
      }
    }

    try deadline.check()
    let ownBatches = try remote.batchCount(device: device)
    if options.compact || ownBatches > SyncEngine.compactionThreshold {
      let snapshot = try store.snapshot(now: wallClock())
      // Unique even for two snapshots of one device in the same millisecond.
      let name =
        FileRemote.padded(Int(snapshot.created)) + "-" + device + "-"
        + String(UUIDText.random().prefix(8))
      try remote.putSnapshot(name: name, bytes: BatchCodec.encode(snapshot))
      try store.setSnapshot(name, remote: record.name)
      // A device that has pushed nothing yet has nothing to delete (and `through=0` is refused).
      let through = min(snapshot.covers[device], pushed)
      if through > 0 { try remote.deleteBatches(device: device, through: through) }
      report.snapshotWritten = name
    }
  }
}

extension SyncEngine {
  /// The rules a pulled batch must meet to be merged now: seqs that follow on from what this log
  /// merged, and no stamp more than ``Stamp/aheadLimit`` ahead of the wall clock.
  func rules() throws -> PullRules {
    PullRules(merged: try store.appliedVector(), wall: wallClock())
  }

  /// Notes a held batch once per device (a folder remote reports it again on every page).
  func hold(_ batch: HeldBatch, in report: inout Report) {
    guard
      !report.held.contains(where: { $0.device == batch.device && $0.snapshot == batch.snapshot })
    else { return }
    report.held.append(batch)
  }
}

/// The end of `--timeout`: one instant that the engine checks between steps and that each
/// transport is given (``HTTPRemote``'s requests end by it), so a sync that runs out stops with
/// ``SyncError/timedOut(seconds:)`` or an unavailable remote (both exit 69) and returns to its
/// caller: never an exit of the process, which would end a `lifelog shell` with it.
public struct Deadline: Sendable {
  /// Unix milliseconds; nil for no limit.
  public let end: Int64?
  /// The `--timeout` it came from, for the message.
  public let seconds: Int?
  let now: @Sendable () -> Int64

  public init(
    seconds: Int?, now: @escaping @Sendable () -> Int64 = LogStore.systemMilliseconds
  ) {
    self.seconds = seconds
    self.now = now
    end = seconds.map { now() + Int64($0) * 1000 }
  }

  /// - Throws: ``SyncError/timedOut(seconds:)`` once the end has passed.
  public func check() throws(SyncError) {
    if let end, let seconds, now() > end { throw .timedOut(seconds: seconds) }
  }
}

/// Dotted version numbers, compared part by part.
enum Version {
  static func compare(_ a: String, _ b: String) -> Int {
    let left = a.split(separator: ".").map { Int($0) ?? 0 }
    let right = b.split(separator: ".").map { Int($0) ?? 0 }
    for index in 0..<max(left.count, right.count) {
      let x = index < left.count ? left[index] : 0
      let y = index < right.count ? right[index] : 0
      if x != y { return x < y ? -1 : 1 }
    }
    return 0
  }
}
