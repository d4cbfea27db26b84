import LifelogSQLite

/// Undo, reverting side (`lifelog undo`).
///
/// The rule is exact and simple: a step is reverted only when every field it wrote still holds
/// the stamp it wrote, that is, nothing changed those fields since, neither a later command
/// nor a sync merge from another machine. Otherwise nothing is written and the error says what
/// changed. Reverting is itself a local write: the previous values are written back with a new
/// stamp and queued, so the undo syncs like any other change (a created entry or activity is
/// marked deleted, which is how deletions sync).
extension LogStore {
  /// The most recent steps, newest first: at most ``keptUndoSteps`` (older ones may still be
  /// stored, waiting for the next batch of deletes).
  public func undoSteps(limit: Int) throws -> [UndoStep] {
    let limit = min(limit, LogStore.keptUndoSteps)
    return try read {
      // The steps kept in entries are the newest (``moveEntryStepsToTable()``).
      let inEntries = try entrySteps(limit: limit)
      return try inEntries
        + database.cachedStatement(
          sql: """
            SELECT seq, at_ms, description,
              bulk_count + CASE WHEN json_valid(rows) THEN json_array_length(rows) ELSE 0 END
            FROM local_undo_step ORDER BY seq DESC LIMIT ?
            """
        ).map([limit - inEntries.count]) {
          UndoStep(seq: $0[0], atMilliseconds: $0[1], description: $0[2], rowCount: $0[3])
        }
    }
  }

  /// Reverts the most recent step and forgets it.
  ///
  /// - Returns: the step reverted; nil when there is none.
  /// - Throws: ``InputError`` when a field the step wrote was changed since (nothing is written).
  public func undoLastStep() throws -> UndoStep? {
    try write {
      // Every step is then a table row, numbered in range (the trim below subtracts from the
      // newest); the mark moves past the entries when one is reverted.
      try keepStepSeqsInRange()
      try moveEntryStepsToTable()
      let newest: Int64? = try database.cachedStatement(sql: "SELECT max(seq) FROM local_undo_step")
        .first { $0[0] }
      if let newest { try trimUndoSteps(below: newest) }
      guard let step = try undoSteps(limit: 1).first else { return nil }
      let rows = try undoRows(of: step.seq)
      let bulk: (stamp: String, count: Int)? = try database.cachedStatement(
        sql: "SELECT bulk_stamp, bulk_count FROM local_undo_step WHERE seq = ? AND bulk_count > 0"
      ).first([step.seq]) { ($0[0], $0[1]) }
      let conflicts = try undoConflicts(rows, bulk: bulk)
      guard conflicts.isEmpty else {
        let more = conflicts.count > 3 ? " (and \(conflicts.count - 3) more)" : ""
        throw InputError(
          "Cannot undo '\(step.description)': \(conflicts.prefix(3).joined(separator: "; "))\(more) since; "
            + "nothing was changed (change it back by hand with 'lifelog edit')")
      }
      let stamp = try nextStamp()
      for row in rows {
        try revert(row, with: stamp)
        try carryForward(row, reverted: stamp, before: step.seq)
      }
      if let bulk { try revertBulkCreation(stamp: bulk.stamp, with: stamp) }
      try database.execute(sql: "DELETE FROM local_undo_step WHERE seq = ?", arguments: [step.seq])
      try markEntryStepsMoved()
      pendingWriteMark = .stepUndone(seq: step.seq, description: step.description)
      var undone = step
      undone.restoredEntryIDs = rows.filter { $0.entity == .entry && !$0.created }.map(\.id)
      return undone
    }
  }

  private func undoRows(of step: Int64) throws -> [UndoRowRecord] {
    let rows: String =
      try database.cachedStatement(sql: "SELECT rows FROM local_undo_step WHERE seq = ?").first([
        step
      ]) { $0[0] } ?? "[]"
    return try UndoRowRecord.decoded(rows, in: database)
  }

  /// What changed since the step, one phrase each (`entry 1a2b3c4d's note was changed by another
  /// machine`); empty when the step can be reverted.
  private func undoConflicts(
    _ rows: [UndoRowRecord], bulk: (stamp: String, count: Int)?
  ) throws -> [String] {
    var conflicts: [String] = []
    let device = Stamp.devicePart(try deviceID())
    for row in rows {
      let name =
        row.entity == .entry
        ? "entry \(UUIDText.short(row.id))" : "\(row.entity.rawValue) '\(row.id)'"
      guard let current = try currentStamps(row.entity, id: row.id) else {
        conflicts.append("\(name) no longer exists")
        continue
      }
      let count = row.entity.fields.count
      let now = FieldStamps(decoding: current, count: count)
      let then = FieldStamps(decoding: row.afterStamps, count: count)
      let changed = row.fields.filter { now[$0] != then[$0] }
      guard let first = changed.first else { continue }
      let who = now[first].hasSuffix(device) ? "by a later change here" : "by another machine"
      let fields = changed.map { row.entity.fields[$0] }.joined(separator: ", ")
      conflicts.append("\(name)'s \(fields) was changed \(who)")
    }
    if let bulk {
      let left: Int =
        try database.cachedStatement(sql: "SELECT count(*) FROM entry WHERE stamps = ?").first([
          bulk.stamp
        ]) {
          $0[0]
        } ?? 0
      if left != bulk.count {
        conflicts.append("\(bulk.count - left) of the \(bulk.count) entries it added were changed")
      }
    }
    return conflicts
  }

  /// Writes back the row's previous values (or removes a row the step created), stamped anew.
  private func revert(_ row: UndoRowRecord, with stamp: String) throws {
    let entity = row.entity
    if row.created || row.before == nil {
      if entity == .setting {
        let fallback = Setting(rawValue: row.id)?.defaultValue ?? ""
        try database.execute(
          sql: "UPDATE setting SET value = ? WHERE key = ?", arguments: [fallback, row.id])
        try restamp(.setting, id: row.id, fields: ["value"], with: stamp)
      } else {
        try database.execute(
          sql: "UPDATE \(entity.table) SET deleted = 1 WHERE \(entity.idMatch())",
          arguments: [row.id])
        try restamp(entity, id: row.id, fields: ["deleted"], with: stamp)
      }
      return
    }
    let assignments = row.fields.flatMap { UndoColumns.positions(of: entity, field: $0) }
      .map { "\($0.column) = json_extract(?1, '$[\($0.position)]')" }
    guard !assignments.isEmpty else { return }
    try database.execute(
      sql:
        "UPDATE \(entity.table) SET \(assignments.joined(separator: ", ")) WHERE \(entity.idMatch("?2"))",
      arguments: [row.before, row.id])
    try restamp(entity, id: row.id, fields: row.fields.map { entity.fields[$0] }, with: stamp)
  }

  /// An earlier step that wrote the values just restored now finds them under the new stamp:
  /// its record is moved to that stamp, so it can still be undone after this one.
  private func carryForward(_ row: UndoRowRecord, reverted stamp: String, before step: Int64) throws
  {
    guard !row.created else { return }
    let count = row.entity.fields.count
    let restored = FieldStamps(decoding: row.beforeStamps, count: count)
    let earlier = try database.cachedStatement(
      sql: """
        SELECT s.seq, r.key, json_extract(r.value, '$[6]') FROM local_undo_step s,
          json_each(CASE WHEN json_valid(s.rows) THEN s.rows ELSE '[]' END) r
        WHERE s.seq < ? AND json_extract(r.value, '$[0]') = ? AND json_extract(r.value, '$[1]') = hex(?)
        """
    ).map([step, row.entity.rawValue, row.id]) {
      (step: $0[0] as Int64, position: $0[1] as Int64, stamps: $0[2] as String? ?? "")
    }
    for record in earlier {
      var stamps = FieldStamps(decoding: record.stamps, count: count)
      var moved = false
      for field in row.fields where stamps[field] == restored[field] {
        stamps[field] = stamp
        moved = true
      }
      if moved {
        try database.execute(
          sql: "UPDATE local_undo_step SET rows = json_replace(rows, ?, ?) WHERE seq = ?",
          arguments: ["$[\(record.position)][6]", stamps.encoded, record.step])
      }
    }
  }

  /// Marks deleted every entry an import created (all still carry its stamp), and queues them.
  private func revertBulkCreation(stamp imported: String, with stamp: String) throws {
    var stamps = FieldStamps(count: SyncedEntity.entry.fields.count, stamp: imported)
    if let deleted = SyncedEntity.entry.index(of: "deleted") { stamps[deleted] = stamp }
    try database.execute(
      sql: "UPDATE entry SET deleted = 1, stamps = ? WHERE stamps = ?",
      arguments: [stamps.encoded, imported])
    try database.execute(
      sql:
        "INSERT INTO sync_pending (entity, id) SELECT 'entry', \(StoredEntryID.text(of: "id")) FROM entry WHERE stamps = ?",
      arguments: [stamps.encoded])
  }
}
