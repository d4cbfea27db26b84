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
  private var random: SimulationRandom
  private let directory = SimulationDirectory()
  private let time = SimulationTime(now: 1_893_456_000_000)  // 2030-01-01
  private var devices: [SimulatedDevice] = []
  private var service: SimulatedFileSync
  private var oracle: SimulationOracle
  private var outcome = SimulationOutcome()
  private var step = 0
  /// Every entry id added on any device, to edit on others.
  private var allEntries: [String] = []

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

  private func problem(_ text: String) {
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

  // MARK: - Local operations

  private func operate(on device: SimulatedDevice) throws {
    outcome.operations += 1
    let log = device.log
    switch random.weighted([22, 3, 30, 8, 5, 6, 6, 7, 6]) {
    case 0, 1:
      let entries = try (0..<(random.chance(0.9) ? 1 : random.int(2...4))).map { _ in
        try newEntry(on: device)
      }
      let ids = entries.map(\.id)
      try write(on: device, .entry, ids: ids) {
        if entries.count == 1 { try log.add(entries[0]) } else { try log.add(contentsOf: entries) }
        device.addedEntries += ids
        allEntries += ids
      }
    case 2:
      guard let id = pickEntry(on: device) else { return try operateAdd(on: device) }
      let changes = try randomChanges(on: device)
      try write(on: device, .entry, ids: [id]) { try log.update(id: id, with: changes) }
    case 3, 4:
      guard let id = pickEntry(on: device) else { return try operateAdd(on: device) }
      var ids = [id]
      if random.chance(0.1), let other = pickEntry(on: device), other != id { ids.append(other) }
      let deleted = random.chance(0.6)
      try write(on: device, .entry, ids: ids) { _ = try log.setDeleted(deleted, ids: ids) }
    case 5:
      let name = random.pick(SimulationRandom.activityNames)
      let (kind, unit, target) = (
        random.pick(ActivityKind.allCases), random.unit(), random.target()
      )
      try write(on: device, .activity, ids: nil) {
        try log.addActivity(named: name, kind: kind, unit: unit, target: target)
      }
    case 6:
      let old = try pickActivityName(on: device)
      let new = random.chance(0.15) ? old.uppercased() : random.pick(SimulationRandom.activityNames)
      try write(on: device, .activity, ids: nil) { try log.renameActivity(old, to: new) }
    case 7:
      let name = try pickActivityName(on: device)
      let kind = random.chance(0.4) ? random.pick(ActivityKind.allCases) : nil
      let unit: String?? = random.chance(0.3) ? .some(random.unit()) : nil
      let target: Target?? = random.chance(0.3) ? .some(random.target()) : nil
      var archived = random.chance(0.3) ? random.chance(0.5) : nil
      if kind == nil, unit == nil, target == nil, archived == nil { archived = random.chance(0.5) }
      try write(on: device, .activity, ids: nil) {
        try log.updateActivity(
          named: name, kind: kind, unit: unit, target: target, archived: archived)
      }
    default:
      let setting = random.pick(Setting.allCases)
      let value = random.value(for: setting)
      try write(on: device, .setting, ids: [setting.rawValue]) { try log.set(setting, to: value) }
    }
  }

  private func operateAdd(on device: SimulatedDevice) throws {
    let entry = try newEntry(on: device)
    try write(on: device, .entry, ids: [entry.id]) {
      try device.log.add(entry)
      device.addedEntries.append(entry.id)
      allEntries.append(entry.id)
    }
  }

  private func newEntry(on device: SimulatedDevice) throws -> NewEntry {
    NewEntry(
      id: UUIDText.random(using: &random), activityID: try pickActivityID(on: device),
      time: random.loggedTime(),
      duration: random.duration(), note: random.note(), quantity: random.quantity(),
      tags: random.tags(),
      source: random.source())
  }

  private func randomChanges(on device: SimulatedDevice) throws -> EntryChanges {
    var changes = EntryChanges()
    if random.chance(0.25) { changes.activityID = try pickActivityID(on: device) }
    if random.chance(0.3) { changes.time = random.loggedTime() }
    if random.chance(0.3) { changes.duration = .some(random.duration()) }
    if random.chance(0.4) { changes.note = .some(random.note()) }
    if random.chance(0.3) { changes.quantity = .some(random.quantity()) }
    if random.chance(0.3) { changes.tags = random.tags() }
    if changes.isEmpty { changes.note = .some(random.note()) }
    return changes
  }

  /// An entry this device added, or one any device added (which may not have reached it yet).
  private func pickEntry(on device: SimulatedDevice) -> String? {
    if !device.addedEntries.isEmpty, random.chance(0.5) { return random.pick(device.addedEntries) }
    return allEntries.isEmpty ? nil : random.pick(allEntries)
  }

  private func pickActivityID(on device: SimulatedDevice) throws -> String {
    let activities = try device.log.activities()
    if activities.isEmpty || random.chance(0.05) {
      return ActivityName.derivedID(for: random.pick(SimulationRandom.activityNames))
    }
    return random.pick(activities).id
  }

  private func pickActivityName(on device: SimulatedDevice) throws -> String {
    let activities = try device.log.activities()
    if activities.isEmpty || random.chance(0.1) {
      return random.pick(SimulationRandom.activityNames)
    }
    return random.pick(activities).name
  }

  /// Runs one local write and records, for the oracle, every field it stamped: the rows named by
  /// `ids` (or the whole table) are read before and after.
  private func write(
    on device: SimulatedDevice, _ entity: SyncedEntity, ids: [String]?, _ body: () throws -> Void
  )
    throws
  {
    let database = device.log.database
    func read() throws -> [String: SimulatedRow] {
      guard let ids else { return try SimulatedState.table(entity, in: database) }
      var rows: [String: SimulatedRow] = [:]
      for id in ids {
        rows[SimulatedState.key(entity, id)] = try SimulatedState.row(entity, id: id, in: database)
      }
      return rows
    }
    let before = try read()
    do {
      try body()
    } catch is InputError {
      outcome.refused += 1
      if try read() != before {
        problem("device \(device.index): a refused \(entity) write changed the log")
      }
      return
    }
    outcome.writes += 1
    let after = try read()
    let devicePart = Stamp.devicePart(device.id)
    for key in before.keys where after[key] == nil {
      problem("device \(device.index): \(key) vanished in a local write")
    }
    for (key, row) in after.sorted(by: { $0.key < $1.key }) {
      let old = before[key]
      for field in row.values.indices {
        let oldStamp = old?.stamps[field] ?? Stamp.never
        let stamp = row.stamps[field]
        if stamp == oldStamp {
          if let old, old.values[field] != row.values[field] {
            problem(
              "device \(device.index): \(key) field \(field) changed from \(old.values[field]) "
                + "to \(row.values[field]) without a new stamp, so it would never sync")
          }
          continue
        }
        if stamp <= oldStamp {
          problem(
            "device \(device.index): \(key) field \(field) was stamped \(stamp), not after \(oldStamp)"
          )
        }
        if !Stamp.isValid(stamp) || !stamp.hasSuffix(devicePart) {
          problem(
            "device \(device.index): \(key) field \(field) has stamp \(stamp), not one of this device"
          )
        }
        if let conflict = oracle.record(
          key: key, fieldCount: row.values.count, field: field, stamp: stamp,
          value: row.values[field])
        {
          problem(conflict)
        }
      }
    }
  }
}
