import Foundation
import LifelogCore
import LifelogSQLite
import LifelogSync
import LifelogTestSupport

/// What one simulation run does, derived from its seed.
struct SimulationPlan: CustomStringConvertible {
  var seed: UInt64
  var devices: Int
  /// Local operations and syncs, interleaved.
  var steps: Int
  /// The share of syncs that also compact (write a snapshot, delete the batches it covers).
  var compaction: Double
  /// Whether one device is away (no syncs, nothing delivered to its folder) for a long stretch.
  var longAbsence: Bool
  /// Where the devices exchange batches.
  var meeting: SimulationMeeting = .folders
  /// Whether the remote is encrypted end to end (every batch and snapshot sealed).
  var encrypted = false

  /// The plan of an ordinary seed: 3–5 devices, a few hundred steps.
  static func standard(seed: UInt64) -> SimulationPlan {
    var random = SimulationRandom(seed: seed ^ 0x5EED_5EED_5EED_5EED)
    return SimulationPlan(
      seed: seed, devices: random.int(3...5), steps: random.int(100...300),
      compaction: random.chance(0.5) ? 0.15 : 0,
      longAbsence: random.chance(0.4))
  }

  var description: String {
    "seed \(seed): \(devices) devices, \(steps) steps, "
      + "compaction \(compaction > 0 ? "on" : "off"), long absence \(longAbsence ? "yes" : "no")"
      + (meeting.serverURL.map { ", through \($0)" } ?? "") + (encrypted ? ", encrypted" : "")
  }
}

/// Where the simulated devices exchange batches.
enum SimulationMeeting {
  /// Each device has its own copy of a folder remote, carried between them by
  /// ``SimulatedFileSync``.
  case folders
  /// One `lifelog serve` that every device reaches over HTTP with the same user's token; the
  /// file-syncing service then has nothing to carry.
  case server(url: String, token: String)
  /// Several `lifelog serve` processes on one store; each sync goes to one of them at random
  /// (a generator per device, seeded from `seed` and the device's index).
  case servers(urls: [String], token: String, seed: UInt64)
  /// One WebDAV server (``DAVRemote``): `token` is `user:password`; device 0 makes the remote in
  /// the empty collection at `url`, as `lifelog remote add` does.
  case dav(url: String, token: String)

  var serverURL: String? {
    switch self {
    case .folders: nil
    case .server(let url, _): url
    case .servers(let urls, _, _): urls.joined(separator: " and ")
    case .dav(let url, _): url
    }
  }

  /// The server a device joins, and the token.
  var firstServer: (url: String, token: String)? {
    switch self {
    case .folders: nil
    case .server(let url, let token): (url, token)
    case .servers(let urls, let token, _): (urls[0], token)
    case .dav(let url, let token): (url, token)
    }
  }
}

/// What a run saw, and what was wrong.
struct SimulationOutcome {
  var problems: [String] = []
  var operations = 0
  /// Operations that wrote something.
  var writes = 0
  /// Operations the store refused (a name taken, an entry not on this device yet, a bad value).
  var refused = 0
  var syncs = 0
  /// Syncs that ran out of time part way through.
  var interruptedSyncs = 0
  /// Times a device's log was closed and opened again.
  var reopens = 0
  /// Syncs that reported a damaged or truncated batch they skipped.
  var syncsWithSkipped = 0
  /// Syncs that held back a batch (a gap, a damaged file, a stamp over an hour ahead).
  var syncsWithHeld = 0
  var snapshotsWritten = 0
  var snapshotsMerged = 0
  var batchesPulled = 0
  var fieldWrites = 0
  var deliveries = SimulatedFileSync.Statistics()

  var summary: String {
    "\(operations) operations (\(writes) wrote \(fieldWrites) fields, \(refused) refused), "
      + "\(syncs) syncs (\(interruptedSyncs) interrupted, \(batchesPulled) batches pulled, "
      + "\(syncsWithSkipped) skipped a damaged file, \(syncsWithHeld) held a batch, \(snapshotsWritten) snapshots written, "
      + "\(snapshotsMerged) merged), deliveries: \(deliveries.whole) whole, "
      + "\(deliveries.damaged) damaged, \(deliveries.removals) removals; \(reopens) reopens"
  }
}
