import Foundation
import LifelogCore
import LifelogSQLite
import LifelogSync
import LifelogTestSupport

extension ConvergenceSimulation {
  // MARK: - Local operations

  func operate(on device: SimulatedDevice) throws {
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
