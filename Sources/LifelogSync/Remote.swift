import LifelogCore
import LifelogProtocol

/// Where batches are exchanged (docs/design.md §4): a folder today, an HTTP server next.
///
/// The engine talks only to this interface, so a new kind of remote needs no engine change.
///
/// Every method may throw ``SyncError``; a remote never applies anything to the local log.
public protocol Remote: AnyObject {
  /// The remote as people know it: a path or a URL.
  var location: String { get }

  /// How batches and snapshots are stored here: plain, or sealed with the remote's data key. Set
  /// by whoever made the remote, from what this log keeps about it.
  var envelope: BatchEnvelope { get set }

  /// Reads the manifest. Throws ``SyncError/remoteUnavailable(_:reason:)`` when the remote is
  /// missing, unmounted or emptied: a remote is created only by `lifelog remote add`.
  func manifest() throws -> RemoteManifest

  /// Stores one immutable batch under its name. Pushing the same bytes again is a no-op; different
  /// bytes under an existing name throw ``SyncError/conflict(_:)``.
  func push(device: String, seq: Int, bytes: [UInt8]) throws

  /// Batches of other devices after `cursor` (`""` for the beginning), a page at a time, each
  /// already verified and admitted by `rules`.
  ///
  /// A device's batches are passed in seq order without gaps: the first one that is missing,
  /// unreadable or refused by `rules` is listed in ``PullPage/held`` and holds back only its own
  /// device (its later batches wait behind it); the returned cursor still includes it, so the next
  /// sync asks for it again. Nothing below the cursor is ever passed over (docs/sync-protocol.md §6).
  ///
  /// - Parameter rowLimit: a page ends once it holds this many rows (it always holds at least one
  ///   batch), so the memory a page takes stays bounded however large the backlog.
  func pull(
    after cursor: String, excluding device: String, rowLimit: Int, rules: PullRules
  ) throws -> PullPage

  /// Stores a snapshot under a new, unique name.
  func putSnapshot(name: String, bytes: [UInt8]) throws

  /// The newest snapshot that holds batches of devices other than `device` (the reader) that
  /// `cursor` has not reached, with the cursor of a reader who has merged it and had `cursor`
  /// before; nil when there is none. A snapshot that would be new but cannot be read (damaged, or
  /// failing authentication) is passed over and described in `skipped`.
  func snapshot(
    beyond cursor: String, excluding device: String, skipped: inout [String]
  ) throws -> PulledSnapshot?

  /// As ``snapshot(beyond:excluding:skipped:)``, passing over the snapshots named in `passing`
  /// (held by the clock rule in this sync) for the newest older one that holds something new.
  ///
  /// A snapshot stamped far ahead must not hold back what an older, sound snapshot covers. The
  /// default asks for the newest snapshot and gives nil when it is one to pass over: a remote that
  /// serves only its newest snapshot (a server) then holds every device that snapshot covers
  /// (docs/sync-protocol.md §5).
  func snapshot(
    beyond cursor: String, excluding device: String, passing: Set<String>,
    skipped: inout [String]
  ) throws -> PulledSnapshot?

  /// How many batches of `device` the remote holds.
  func batchCount(device: String) throws -> Int

  /// Deletes `device`'s batches up to and including `seq` (covered by a snapshot).
  func deleteBatches(device: String, through seq: Int) throws

  /// The newest key envelope of an encrypted remote; nil when the remote is not encrypted.
  func keys() throws -> RemoteKeys?

  /// Stores the next version of the key envelope. Throws ``SyncError/keysChanged(_:)`` when that
  /// version is already taken (another machine changed the passphrase at the same moment).
  func putKeys(_ keys: RemoteKeys) throws

  /// Finds the remote's token or password in text about to be shown or stored (a sync's
  /// outcome); ``SecretScrubber/none`` for a remote without one.
  var secrets: SecretScrubber { get }
}

/// What a remote's manifest says (`lifelog-remote.json` in a folder remote).
public struct RemoteManifest: Equatable, Sendable {
  public var remoteID: String
  public var format: Int
  /// The lowest lifelog version allowed to write here.
  public var minimumVersion: String
  /// Whether batches here are sealed (the remote holds a key envelope).
  public var encrypted: Bool

  public init(remoteID: String, format: Int = 1, minimumVersion: String, encrypted: Bool = false) {
    self.remoteID = remoteID
    self.format = format
    self.minimumVersion = minimumVersion
    self.encrypted = encrypted
  }
}

public struct PulledBatch: Sendable {
  public var name: String
  public var batch: Batch
}

public struct PulledSnapshot: Sendable {
  public var name: String
  public var snapshot: Batch
  public var cursor: String
}

extension Remote {
  public var secrets: SecretScrubber { .none }

  public func snapshot(
    beyond cursor: String, excluding device: String, passing: Set<String>,
    skipped: inout [String]
  ) throws -> PulledSnapshot? {
    guard let newest = try snapshot(beyond: cursor, excluding: device, skipped: &skipped),
      !passing.contains(newest.name)
    else { return nil }
    return newest
  }

  /// A pull that admits every readable batch: for looking, not for merging (`remote add` checks
  /// whether a remote is empty).
  public func pull(after cursor: String, excluding device: String, rowLimit: Int) throws -> PullPage
  {
    try pull(
      after: cursor, excluding: device, rowLimit: rowLimit, rules: PullRules(merged: nil, wall: nil)
    )
  }
}

/// One page of a pull.
public struct PullPage: Sendable {
  public var batches: [PulledBatch]
  /// The cursor after these batches.
  public var cursor: String
  /// Whether another page is waiting.
  public var more: Bool
  /// Warnings about this page (a snapshot still to merge before the pull can go on).
  public var skipped: [String]
  /// The first batch of each device that was not merged, with why; it stays below the cursor.
  public var held: [HeldBatch] = []

  public init(
    batches: [PulledBatch], cursor: String, more: Bool, skipped: [String], held: [HeldBatch] = []
  ) {
    self.batches = batches
    self.cursor = cursor
    self.more = more
    self.skipped = skipped
    self.held = held
  }
}

extension RemoteManifest {
  /// Throws unless this is still the manifest of the remote `record` joined: the same remote id,
  /// and batches sealed exactly when this log holds a data key.
  ///
  /// `sync` and `lifelog check` both refuse a remote that changed under them, in this order (a
  /// different remote is said first, as nothing else about it matters). Each words the advice on
  /// an encryption mismatch for what its user can do next.
  ///
  /// - Parameters:
  ///   - checkingVersion: also refuse, after the id, a remote that needs a newer lifelog to write
  ///     to it (`sync` writes; `check` only reads).
  ///   - ifEncrypted: the reason when the remote is encrypted but this log joined it unencrypted.
  ///   - ifNotEncrypted: the reason when this log holds a key but the remote says it has none.
  /// - Throws: ``SyncError/differentRemote(_:expected:found:)``,
  ///   ``SyncError/upgradeRequired(_:minimumVersion:)``, ``SyncError/encryptionMismatch(_:reason:)``.
  func expectJoined(
    by record: RemoteRecord, at location: String, checkingVersion: Bool,
    ifEncrypted: String, ifNotEncrypted: String
  ) throws(SyncError) {
    guard remoteID == record.remoteID else {
      throw .differentRemote(location, expected: record.remoteID, found: remoteID)
    }
    if checkingVersion, Version.compare(LifelogVersion.current, minimumVersion) < 0 {
      throw .upgradeRequired(location, minimumVersion: minimumVersion)
    }
    guard encrypted == (record.dataKey != nil) else {
      throw .encryptionMismatch(location, reason: encrypted ? ifEncrypted : ifNotEncrypted)
    }
  }
}
