import Foundation
import LifelogCore
import LifelogSQLite
import LifelogSync
import LifelogTestSupport

/// The convergence simulation of docs/design.md §3–§4, one seed at a time.
///
/// Devices on real database files make random edits and sync at random through their own copies
/// of a folder remote, which a simulated file-syncing service carries between them late, out of
/// order, duplicated and sometimes damaged; clocks are skewed up to a day either way, syncs now
/// and then run out of time part way through, logs are closed and opened again. At the end, after
/// every delivery and two rounds of syncs, every device must hold exactly the per-field
/// last-writer-wins state computed from the local writes alone.
final class ConvergenceSimulation {
  static let day: Int64 = 86_400_000
  static let maximumProblems = 25
  /// `LIFELOG_SIMULATION_TRACE=1` prints every sync and the final state of every folder.
  static let tracing = ProcessInfo.processInfo.environment["LIFELOG_SIMULATION_TRACE"] == "1"

  let plan: SimulationPlan
  var random: SimulationRandom
  private let directory = SimulationDirectory()
  let time = SimulationTime(now: 1_893_456_000_000)  // 2030-01-01
  var devices: [SimulatedDevice] = []
  private var service: SimulatedFileSync
  var oracle: SimulationOracle
  var outcome = SimulationOutcome()
  var step = 0
  /// Every entry id added on any device, to edit on others.
  var allEntries: [String] = []

  init(plan: SimulationPlan) throws {
    self.plan = plan
    random = SimulationRandom(seed: plan.seed)
    for index in 0..<plan.devices {
      let skew =
        random.chance(0.2)
        ? 0 : random.int64(-ConvergenceSimulation.day...ConvergenceSimulation.day)
      devices.append(
        try SimulatedDevice(
          index: index, id: UUIDText.random(using: &random), skew: skew, time: time,
          databasePath: directory.file("device-\(index)/lifelog.db"),
          folder: directory.file("remote-\(index)"), meeting: plan.meeting))
    }
    service = SimulatedFileSync(folders: devices.map(\.folder), deviceIDs: devices.map(\.id))
    let initial = try SimulatedState.all(devices[0].log.database)
    oracle = SimulationOracle(initial: initial)
    for device in devices.dropFirst() where try SimulatedState.all(device.log.database) != initial {
      outcome.problems.append("device \(device.index) starts with a different log than device 0")
    }
    try joinRemote()
  }

  /// Device 0 creates the remote; the others' folders start as copies of it (same manifest).
  ///
  /// With a server, every device joins the server's remote, as `lifelog remote add` does.
  private func joinRemote() throws {
    if let (url, token) = plan.meeting.firstServer {
      if case .dav = plan.meeting, let remote = devices[0].remote() as? DAVRemote {
        _ = try remote.create(
          remoteID: UUIDText.random(), minimumVersion: LifelogVersion.minimumRemoteWriter,
          keys: nil)
      }
      let manifest = try devices[0].remote().manifest()
      for device in devices {
        try device.sync.addRemote(
          name: SimulatedDevice.remoteName, url: url, remoteID: manifest.remoteID, token: token)
      }
      return
    }
    let remoteID = UUIDText.random()
    let keys =
      try plan.encrypted
      ? RemoteKeys.create(remoteID: remoteID, passphrase: Array("simulated".utf8)) : nil
    let manifest = try devices[0].folderRemote.create(
      remoteID: remoteID, minimumVersion: LifelogVersion.minimumRemoteWriter, keys: keys?.keys)
    let manifestBytes = try Data(
      contentsOf: URL(fileURLWithPath: devices[0].folder + "/lifelog-remote.json"))
    for device in devices {
      try FileManager.default.createDirectory(
        atPath: device.folder + "/devices", withIntermediateDirectories: true)
      try FileManager.default.createDirectory(
        atPath: device.folder + "/snapshots", withIntermediateDirectories: true)
      try manifestBytes.write(to: URL(fileURLWithPath: device.folder + "/lifelog-remote.json"))
      try device.sync.addRemote(
        name: SimulatedDevice.remoteName, url: device.folder, remoteID: manifest.remoteID,
        dataKey: keys?.dataKey)
    }
  }

  // MARK: - Running

  func run() throws -> SimulationOutcome {
    let absent = random.int(0...(devices.count - 1))
    let absenceStart = random.int(0...(plan.steps / 3))
    let absence =
      plan.longAbsence
      ? absenceStart..<(absenceStart + random.int((plan.steps / 3)...(plan.steps * 2 / 3))) : 0..<0
    while step < plan.steps, outcome.problems.count < ConvergenceSimulation.maximumProblems {
      advanceTime()
      for device in devices {
        if device.index == absent, absence.contains(step) {
          device.offline = true
        } else if device.offline {
          device.offline = !random.chance(0.1)
        } else {
          device.offline = random.chance(0.01)
        }
      }
      if random.chance(0.01) {
        try random.pick(devices).reopen()
        outcome.reopens += 1
      }
      if random.chance(0.1) {
        let online = devices.filter { !$0.offline }
        if !online.isEmpty {
          try sync(random.pick(online), compact: random.chance(plan.compaction))
        }
      } else {
        try operate(on: random.pick(devices))
      }
      if random.chance(0.35) {
        try service.deliver(
          count: random.int(1...3), online: { !devices[$0].offline }, random: &random)
      }
      step += 1
    }
    try finish()
    outcome.fieldWrites = oracle.writes
    outcome.deliveries = service.statistics
    return outcome
  }

  private func advanceTime() {
    switch random.weighted([20, 50, 25, 5]) {
    case 0: break  // several things in the same millisecond
    case 1: time.now += random.int64(1...5_000)
    case 2: time.now += random.int64(1...600_000)
    default: time.now += random.int64(1...(3 * 3_600_000))
    }
  }

  private func sync(_ device: SimulatedDevice, compact: Bool, round: Int? = nil) throws {
    // A sync takes time: a device never writes two snapshots in one millisecond (they would share
    // a name, and snapshot names are taken to be unique).
    time.now += 1
    // Now and then the machine is slow and the sync runs out of its --timeout part way through.
    let interrupted = round == nil && random.chance(0.05)
    if interrupted { time.drift = random.int64(100...3_000) }
    defer { time.drift = 0 }
    let report: SyncEngine.Report
    do {
      report = try device.runSync(compact: compact, timeout: interrupted ? random.int(1...5) : nil)
    } catch SyncError.timedOut where interrupted {
      outcome.interruptedSyncs += 1
      try service.collect(from: device.index, random: &random)
      return
    } catch {
      problem("device \(device.index) sync failed: \(error)")
      return
    }
    outcome.syncs += 1
    outcome.batchesPulled += report.pulled
    if !report.skipped.isEmpty { outcome.syncsWithSkipped += 1 }
    if report.snapshotWritten != nil { outcome.snapshotsWritten += 1 }
    if report.snapshotMerged != nil { outcome.snapshotsMerged += 1 }
    if !report.held.isEmpty { outcome.syncsWithHeld += 1 }
    if let round {
      if !report.held.isEmpty {
        problem(
          "final round \(round): device \(device.index) held \(report.held) with everything delivered"
        )
      }
      if !report.skipped.isEmpty {
        problem(
          "final round \(round): device \(device.index) skipped \(report.skipped) with everything delivered"
        )
      }
      if round == 2, report.pushed != 0 {
        problem(
          "final round 2: device \(device.index) pushed \(report.pushed) batches with no local change (echo)"
        )
      }
    }
    try service.collect(from: device.index, random: &random)
    if ConvergenceSimulation.tracing {
      let record = try device.sync.remote(named: SimulatedDevice.remoteName)
      print(
        "step \(step) sync device \(device.index) \(device.id.prefix(8))\(compact ? " compact" : ""): "
          + "pulled \(report.pulled) pushed \(report.pushed) merged \(report.snapshotMerged ?? "-") "
          + "wrote \(report.snapshotWritten ?? "-") skipped \(report.skipped.count) cursor \(record?.cursor ?? "?") "
          + "applied \(try device.sync.appliedVector().json)")
    }
  }

  /// Delivers everything, then syncs every device twice, delivering everything after each round.
  ///
  /// Time first moves on by more than the widest spread of clocks (two days): a batch held back
  /// because it was stamped more than an hour ahead of its reader's clock is merged once that
  /// clock has caught up, so holding only delays (docs/sync-protocol.md §2).
  private func finish() throws {
    step = plan.steps
    time.now += 2 * ConvergenceSimulation.day + Stamp.aheadLimit
    for device in devices { device.offline = false }
    try service.deliverAll(random: &random)
    for round in 1...2 {
      for index in (0..<devices.count).shuffled(using: &random) {
        advanceTime()
        try sync(devices[index], compact: false, round: round)
      }
      try service.deliverAll(random: &random)
    }
    try compare()
    if ConvergenceSimulation.tracing {
      for device in devices {
        print("device \(device.index) \(device.id) skew \(device.skew)")
        for folder in ["snapshots"] + devices.map({ "devices/" + $0.id }) {
          let names =
            (try? FileManager.default.contentsOfDirectory(atPath: device.folder + "/" + folder))
            ?? []
          print("  \(folder.prefix(17)): \(names.sorted().joined(separator: " "))")
        }
      }
    }
  }

  // MARK: - Checking

  func problem(_ text: String) {
    if outcome.problems.count < ConvergenceSimulation.maximumProblems {
      outcome.problems.append("step \(step): \(text)")
    }
  }

  private func compare() throws {
    let (expected, incomplete) = oracle.expected()
    for key in incomplete { problem("\(key) was created without a write of every field") }
    var states: [[String: SimulatedRow]] = []
    for device in devices {
      let actual = try SimulatedState.all(device.log.database)
      states.append(actual)
      for key in Set(expected.keys).union(actual.keys).sorted() {
        switch (expected[key], actual[key]) {
        case (let wanted?, let found?) where wanted != found:
          for field in wanted.values.indices
          where wanted.values[field] != found.values[field]
            || wanted.stamps[field] != found.stamps[field]
          {
            let name =
              SyncedEntity(rawValue: String(key.prefix { $0 != "/" }))?.fields[field]
              ?? "field \(field)"
            problem(
              "device \(device.index) (\(device.id.prefix(8))): \(key) \(name) is \(found.values[field]) "
                + "stamped \(found.stamps[field]); the last writer wrote \(wanted.values[field]) "
                + "stamped \(wanted.stamps[field])")
          }
        case (.some, nil): problem("device \(device.index) lacks \(key)")
        case (nil, .some): problem("device \(device.index) holds \(key), which no device wrote")
        default: break
        }
      }
      for text in try SimulatedState.nameKeyProblems(device.log.database) {
        problem("device \(device.index): \(text)")
      }
      let pending = try device.sync.pendingCount()
      if pending != 0 { problem("device \(device.index) still has \(pending) rows pending") }
    }
    if states.contains(where: { $0 != states[0] }) {
      problem("the devices do not all hold the same log")
    }
  }
}
