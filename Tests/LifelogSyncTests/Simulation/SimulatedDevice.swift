import LifelogCore
import LifelogSQLite
import LifelogSync

/// The simulated time every device's clock is read from (each adds its own skew).
final class SimulationTime: @unchecked Sendable {
  var now: Int64
  /// Milliseconds that pass at every reading: a sync on a slow machine, that runs out of time.
  var drift: Int64 = 0

  init(now: Int64) { self.now = now }

  func read() -> Int64 {
    now += drift
    return now
  }
}

/// One machine: a real database file, its clock skewed by a fixed amount, and its own copy of
/// the remote folder (or the server every device talks to).
final class SimulatedDevice {
  static let remoteName = "shared"

  let index: Int
  let id: String
  let skew: Int64
  let databasePath: String
  let folder: String
  let folderRemote: FileRemote
  let meeting: SimulationMeeting
  private(set) var log: LogStore
  private(set) var sync: SyncStore
  private(set) var engine: SyncEngine
  private let clock: @Sendable () -> Int64
  /// Offline: no syncs, and the file-syncing service delivers nothing to its folder.
  var offline = false
  /// Entries added on this device, to pick from when editing.
  var addedEntries: [String] = []
  /// Picks the server of each sync when there are several.
  private var serverChoice: SimulationRandom

  /// Opens the device's log with a chosen device id (so a seed replays exactly) and a clock that
  /// has never run (so the first stamp comes from the skewed simulated clock).
  init(
    index: Int, id: String, skew: Int64, time: SimulationTime, databasePath: String, folder: String,
    meeting: SimulationMeeting = .folders
  ) throws {
    self.index = index
    self.id = id
    self.skew = skew
    self.databasePath = databasePath
    self.folder = folder
    if case .servers(_, _, let seed) = meeting {
      serverChoice = SimulationRandom(seed: seed &+ UInt64(index))
    } else {
      serverChoice = SimulationRandom(seed: 0)
    }
    clock = { [time] in time.read() + skew }
    (log, sync, engine) = try SimulatedDevice.open(databasePath, clock: clock)
    try log.database.execute(
      sql: "UPDATE sync_device SET id = ?, name = ?, clock_ms = 0, clock_counter = 0",
      arguments: [id, "device \(index)"])
    folderRemote = try FileRemote(url: folder)
    self.meeting = meeting
  }

  /// Its copy of the folder remote, or a new HTTP remote (whose deadline, in real time, starts
  /// now; the engine's `--timeout` runs on the simulated clock).
  func remote() -> any Remote {
    switch meeting {
    case .folders: folderRemote
    case .server(let url, let token):
      HTTPRemote(url: url, token: token, deadline: LogStore.systemMilliseconds() + 60_000)
    case .servers(let urls, let token, _):
      HTTPRemote(
        url: urls[serverChoice.int(0...(urls.count - 1))], token: token,
        deadline: LogStore.systemMilliseconds() + 60_000)
    case .dav(let url, let token):
      SimulatedDevice.davRemote(url, token: token)
    }
  }

  /// A WebDAV remote at the test's own address, whose deadline starts now.
  private static func davRemote(_ url: String, token: String) -> DAVRemote {
    let parts = token.split(separator: ":", maxSplits: 1).map(String.init)
    guard parts.count == 2,
      let remote = try? DAVRemote(
        url: url, user: parts[0], password: parts[1],
        deadline: LogStore.systemMilliseconds() + 60_000)
    else { preconditionFailure("'\(url)' with '\(token)' is not a WebDAV remote") }
    return remote
  }

  private static func open(
    _ path: String, clock: @escaping @Sendable () -> Int64
  ) throws
    -> (LogStore, SyncStore, SyncEngine)
  {
    let log = try LogStore(path: path)
    // No crash is simulated, so durability only costs time.
    try log.database.execute(sql: "PRAGMA synchronous = OFF")
    log.wallClockMilliseconds = clock
    let sync = SyncStore(log: log)
    let engine = SyncEngine(store: sync)
    engine.wallClock = clock
    return (log, sync, engine)
  }

  /// Closes the log and opens it again, as the next `lifelog` command does.
  func reopen() throws {
    (log, sync, engine) = try SimulatedDevice.open(databasePath, clock: clock)
  }

  /// Syncs with its copy of the remote folder.
  func runSync(compact: Bool, timeout: Int? = nil) throws -> SyncEngine.Report {
    guard let record = try sync.remote(named: SimulatedDevice.remoteName) else {
      throw SyncError.noSuchRemote("device \(index) has no remote")
    }
    let remote = remote()
    remote.envelope = record.envelope
    return try engine.sync(
      record, with: remote, options: SyncEngine.Options(compact: compact, timeout: timeout))
  }
}
