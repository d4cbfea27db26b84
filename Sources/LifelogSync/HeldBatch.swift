import LifelogCore
import LifelogProtocol

/// A batch (or snapshot) of another device that was not merged yet, and why.
///
/// It stays below the cursor for its device, so the next sync asks for it again; the device's
/// later batches wait behind it and every other device goes on (docs/sync-protocol.md §6).
/// `lifelog status` names each one.
public struct HeldBatch: Equatable, Sendable, CustomStringConvertible {
  public enum Reason: Equatable, Sendable {
    /// Not on the remote, or left out of a page, while a later batch of the device is there.
    case missing
    /// Damaged, cut short, failing its checksum or authentication; with the reader's reason.
    case unreadable(String)
    /// Carries a stamp this far (milliseconds) ahead of this machine's wall clock.
    case ahead(milliseconds: Int64)
  }

  public var device: String
  /// The batch's seq; 0 for a snapshot.
  public var seq: Int
  /// The snapshot's name when a snapshot is held.
  public var snapshot: String?
  public var reason: Reason

  public init(device: String, seq: Int, snapshot: String? = nil, reason: Reason) {
    self.device = device
    self.seq = seq
    self.snapshot = snapshot
    self.reason = reason
  }

  /// What it is, in plain words: `batch 5 of device 8f3a…`.
  public var name: String {
    snapshot.map { "snapshot \($0)" } ?? "batch \(seq) of device \(device)"
  }

  /// Why it waits, in plain words.
  public var why: String {
    switch reason {
    case .missing: "missing (a later batch of that device is there)"
    case .unreadable(let error): "unreadable (\(error))"
    case .ahead(let milliseconds):
      "stamped \(HeldBatch.duration(milliseconds)) ahead of this machine's clock"
    }
  }

  /// What the user can do about it.
  public var advice: String {
    switch reason {
    case .missing, .unreadable:
      "the next sync asks for it again; if it stays so, sync that device again (it still has the batch)"
    case .ahead:
      "it is merged once this machine's clock is within \(HeldBatch.duration(Stamp.aheadLimit)) of it; "
        + "check the clock of that device"
    }
  }

  public var description: String { "\(name): \(why)" }

  // MARK: - Storage

  static let linePrefix = "held\t"

  /// One line for the `skipped` column of `sync_remote`: tab-separated, no newline.
  var line: String {
    let (kind, detail): (String, String) =
      switch reason {
      case .missing: ("missing", "")
      case .unreadable(let error): ("unreadable", error)
      case .ahead(let milliseconds): ("ahead", String(milliseconds))
      }
    let fields = [device, String(seq), snapshot ?? "", kind, detail].map(HeldBatch.flattened)
    return HeldBatch.linePrefix + fields.joined(separator: "\t")
  }

  /// Reads a line written by ``line``; nil for anything else.
  init?(line: String) {
    guard line.hasPrefix(HeldBatch.linePrefix) else { return nil }
    let fields = line.dropFirst(HeldBatch.linePrefix.count).split(
      separator: "\t", omittingEmptySubsequences: false)
    guard fields.count == 5, let seq = Int(fields[1]) else { return nil }
    let reason: Reason
    switch fields[3] {
    case "missing": reason = .missing
    case "unreadable": reason = .unreadable(String(fields[4]))
    case "ahead":
      guard let milliseconds = Int64(fields[4]) else { return nil }
      reason = .ahead(milliseconds: milliseconds)
    default: return nil
    }
    self.init(
      device: String(fields[0]), seq: seq, snapshot: fields[2].isEmpty ? nil : String(fields[2]),
      reason: reason)
  }

  private static func flattened(_ text: String) -> String {
    String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
  }

  // MARK: - Durations

  /// A duration in the largest whole unit that fits: `2 years`, `5 days`, `3 hours`, `10 minutes`.
  public static func duration(_ milliseconds: Int64) -> String {
    let minutes = max(0, milliseconds) / 60_000
    let units: [(Int64, String)] = [(525_600, "year"), (1_440, "day"), (60, "hour"), (1, "minute")]
    for (size, unit) in units where minutes >= size {
      let count = minutes / size
      return "\(count) \(unit)\(count == 1 ? "" : "s")"
    }
    return "less than a minute"
  }
}

/// What the engine asks of each pulled batch before it may be merged.
public struct PullRules: Sendable {
  /// The highest seq of each device merged into this log; nil to take batches as they come.
  public var merged: VersionVector?
  /// This machine's wall clock (Unix milliseconds); nil to admit any stamp.
  public var wall: Int64?

  public init(merged: VersionVector?, wall: Int64?) {
    self.merged = merged
    self.wall = wall
  }

  /// Why a readable batch or snapshot must wait, or nil when it may be merged now: a stamp more
  /// than ``Stamp/aheadLimit`` ahead of the wall clock is not applied early (docs/sync-protocol.md §2).
  public func hold(_ batch: Batch) -> HeldBatch.Reason? {
    guard let wall, let newest = Stamp.milliseconds(batch.newestStamp) else { return nil }
    let (difference, overflow) = newest.subtractingReportingOverflow(wall)
    let ahead = overflow ? Int64.max : difference
    return ahead > Stamp.aheadLimit ? .ahead(milliseconds: ahead) : nil
  }
}

extension Batch {
  /// The newest stamp of any field of any row.
  public var newestStamp: String {
    changes.reduce(Stamp.never) { max($0, $1.stamps.newest) }
  }
}

extension HeldBatch.Reason {
  /// Whether the batch could not be read (the remote's reader warns about those itself).
  public var isUnreadable: Bool {
    if case .unreadable = self { return true }
    return false
  }
}
