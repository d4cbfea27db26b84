import LifelogSQLite

/// Activities: finding them by name, creating, renaming, archiving.
extension LogStore {
  private static let activityColumns = "id, name, kind, unit, target, archived"

  /// Every activity that is not deleted, meals first, then by name.
  public func activities() throws -> [Activity] {
    try read {
      try database.cachedStatement(
        sql: "SELECT \(LogStore.activityColumns) FROM activity WHERE deleted = 0 "
          + "ORDER BY CASE kind WHEN 'meal' THEN 0 WHEN 'exercise' THEN 1 WHEN 'sleep' THEN 2 "
          + "WHEN 'medication' THEN 3 ELSE 4 END, name_key"
      ).map([], LogStore.decodeActivity)
    }
  }

  /// The activity called `name` (case-insensitively), if there is one.
  public func activity(named name: String) throws -> Activity? {
    try read {
      try database.cachedStatement(
        sql:
          "SELECT \(LogStore.activityColumns) FROM activity WHERE name_key = ? AND deleted = 0 ORDER BY id LIMIT 1"
      ).first([ActivityName.key(name.trimmingSpaces())], LogStore.decodeActivity)
    }
  }

  /// The activity called `name`, or an error that suggests the nearest known names.
  public func requireActivity(named name: String, creatingHint: Bool = false) throws -> Activity {
    if let activity = try activity(named: name) { return activity }
    let names = try activities().filter { !$0.archived }.map(\.name)
    let near = Suggestions.nearest(to: name, in: names)
    var message = "Unknown activity '\(name)'"
    if !near.isEmpty {
      message += "; did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?"
    }
    if creatingHint {
      // After a question the hint is a new sentence; after the bare name it continues this one.
      message += near.isEmpty ? "; to create it" : " To create it"
      message += ", add --kind (\(ActivityKind.allCases.map(\.rawValue).joined(separator: "|")))"
    } else if near.isEmpty {
      message += "; run 'lifelog activity list' to see the activities"
    }
    throw InputError(message)
  }

  /// Creates an activity; the name must not be taken.
  @discardableResult
  public func addActivity(
    named rawName: String, kind: ActivityKind, unit: String? = nil, target: Target? = nil
  ) throws -> Activity {
    let name = try ActivityName.validated(rawName)
    let unit = try unit.map(ActivityUnit.validated)
    try ActivityUnit.check(target: target, unit: unit)
    return try write {
      if let existing = try activity(named: name) {
        throw InputError("Activity '\(existing.name)' already exists; pick another name")
      }
      var attempt = 0
      var id = ActivityName.derivedID(for: name)
      while try idTaken(id) {
        attempt += 1
        id = ActivityName.derivedID(for: name, attempt: attempt)
      }
      let activity = Activity(id: id, name: name, kind: kind, unit: unit, target: target)
      try database.execute(
        sql:
          "INSERT INTO activity (id, name, name_key, kind, unit, target, stamps) VALUES (?, ?, ?, ?, ?, ?, ?)",
        arguments: [
          id, name, ActivityName.key(name), kind.rawValue, unit, target?.description,
          try nextStamp(),
        ])
      try markPending(.activity, id: id)
      return activity
    }
  }

  /// Renames an activity; its entries follow it.
  @discardableResult
  public func renameActivity(_ oldName: String, to rawNewName: String) throws -> Activity {
    let newName = try ActivityName.validated(rawNewName)
    return try write {
      var activity = try requireActivity(named: oldName)
      if let other = try self.activity(named: newName), other.id != activity.id {
        throw InputError("Activity '\(other.name)' already exists; pick another name")
      }
      activity.name = newName
      try database.execute(
        sql: "UPDATE activity SET name = ?, name_key = ? WHERE id = ?",
        arguments: [newName, ActivityName.key(newName), activity.id])
      try restamp(.activity, id: activity.id, fields: ["name"], with: try nextStamp())
      return activity
    }
  }

  /// Changes an activity's kind, unit or target (nil leaves a field; `.some(nil)` clears it).
  @discardableResult
  public func updateActivity(
    named name: String, kind: ActivityKind? = nil, unit: String?? = nil, target: Target?? = nil,
    archived: Bool? = nil
  ) throws -> Activity {
    let unit = try unit.map { try $0.map(ActivityUnit.validated) }
    return try write {
      var activity = try requireActivity(named: name)
      if let kind { activity.kind = kind }
      if let unit { activity.unit = unit }
      if let target { activity.target = target }
      if let archived { activity.archived = archived }
      try ActivityUnit.check(target: activity.target, unit: activity.unit)
      try database.execute(
        sql: "UPDATE activity SET kind = ?, unit = ?, target = ?, archived = ? WHERE id = ?",
        arguments: [
          activity.kind.rawValue, activity.unit, activity.target?.description, activity.archived,
          activity.id,
        ])
      var fields: [String] = []
      if kind != nil { fields.append("kind") }
      if unit != nil { fields.append("unit") }
      if target != nil { fields.append("target") }
      if archived != nil { fields.append("archived") }
      try restamp(.activity, id: activity.id, fields: fields, with: try nextStamp())
      return activity
    }
  }

  /// Per-activity totals of live entries, for `activity list`.
  public func activityUsage() throws -> [String: (count: Int, lastAt: Int64?)] {
    try read {
      var usage: [String: (Int, Int64?)] = [:]
      try database.cachedStatement(
        sql:
          """
          SELECT k.id, u.count, u.last FROM (
            SELECT activity, count(*) AS count, max(at) AS last FROM entry WHERE deleted = 0
            GROUP BY activity
          ) u JOIN activity_key k ON k.key = u.activity
          """
      ).forEachRow { row in usage[row[0]] = (row[1], row[2]) }
      return usage
    }
  }

  private func idTaken(_ id: String) throws -> Bool {
    try database.cachedStatement(sql: "SELECT 1 FROM activity WHERE id = ?").first([id]) { _ in true
    } ?? false
  }

  static func decodeActivity(_ row: Row) throws -> Activity {
    let targetText: String? = row[4]
    return Activity(
      id: row[0], name: row[1], kind: ActivityKind(rawValue: row[2]) ?? .other, unit: row[3],
      target: targetText.flatMap { try? Target(parsing: $0) }, archived: row[5])
  }
}

/// Rules for activity units (`km`, `kcal`, `glasses`).
public enum ActivityUnit {
  /// Checks a unit: a short word.
  public static func validated(_ text: String) throws(InputError) -> String {
    let unit = text.trimmingSpaces()
    guard !unit.isEmpty, unit.count <= 16, unit.allSatisfy({ $0.isLetter || $0 == "_" }) else {
      throw InputError("Unit '\(text)' must be a short word of letters, such as 'km' or 'kcal'")
    }
    return unit
  }

  /// A target counted in a quantity must use the activity's unit.
  static func check(target: Target?, unit: String?) throws(InputError) {
    guard let target, case .quantity(let targetUnit) = target.measure else { return }
    guard let unit else {
      throw InputError(
        "Target '\(target)' is in '\(targetUnit)' but the activity has no unit; add --unit \(targetUnit)"
      )
    }
    guard unit.lowercased() == targetUnit.lowercased() else {
      throw InputError(
        "Target '\(target)' is in '\(targetUnit)' but the activity's unit is '\(unit)'")
    }
  }
}

extension LogStore {
  /// The activities whose stored target does not read (``Target/init(parsing:)``), with that text.
  ///
  /// It came by sync from a machine that did not check it, and the activity is read as having no
  /// target (docs/sync-protocol.md §3). Commands warn about them.
  public func ignoredTargets() throws -> [(name: String, stored: String)] {
    try read {
      try database.cachedStatement(
        sql:
          "SELECT name, target FROM activity WHERE deleted = 0 AND target IS NOT NULL ORDER BY name_key"
      ).map { ($0[0] as String, $0[1] as String) }
    }.filter { (try? Target(parsing: $0.stored)) == nil }
  }
}
