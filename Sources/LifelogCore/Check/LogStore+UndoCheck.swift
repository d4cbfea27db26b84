import LifelogSQLite

/// `lifelog check` on the clocks kept in undo steps (docs/schema.md, schemas v7 and v8), in
/// `local_undo_step` and in the entries an `add` kept its step in.
///
/// Each step keeps the hybrid clock's reading its stamps were taken from, and the clock a command
/// starts from is the latest of `sync_device`'s and those (``LogStore/clock()``): a step's clock
/// that no stamp can hold is as harmful as a bad device clock, so each is checked like it.
///
/// Each step's number (seq) is checked too: `undo` reverts the highest first, so one outside the
/// numbers lifelog gives (``LogStore/largestStepSeq``) puts the steps out of order until the next
/// command that records or reverts one numbers them again (``LogStore/keepStepSeqsInRange()``).
extension LogStore {
  /// What `check` says of a step numbered outside 1...``largestStepSeq``.
  static let stepSeqOutOfRange =
    "its number is outside 1 to \(largestStepSeq), where lifelog numbers steps, so undo "
    + "could revert an older step first; the next command that records or undoes a step "
    + "numbers them again"

  func checkUndoClocks(into report: inout CheckReport) throws {
    guard try hasColumn("clock_ms", in: "local_undo_step") else { return }
    try database.makeStatement(
      sql: "SELECT seq FROM local_undo_step WHERE seq NOT BETWEEN 1 AND ? ORDER BY seq"
    ).forEachRow([LogStore.largestStepSeq]) { row in
      report.add("log: undo step \(row[0] as Int64)", "undo", LogStore.stepSeqOutOfRange)
    }
    try database.makeStatement(
      sql: """
        SELECT seq, clock_ms, clock_counter FROM local_undo_step
        WHERE clock_ms IS NOT NULL OR clock_counter IS NOT NULL ORDER BY seq
        """
    ).forEachRow { row in
      LogStore.checkStepClock(
        place: "log: undo step \(row[0] as Int64)", milliseconds: row[1], counter: row[2],
        into: &report)
    }
    // The steps past the mark, and the newest entry's wherever the mark is: the clock a command
    // starts from reads that entry's (``LogStore/clock()``), so a clock there is in use too.
    guard try hasColumn("add_step", in: "entry") else { return }
    try database.makeStatement(
      sql: """
        SELECT \(StoredEntryID.text(of: "id")), \(LogStore.validEntryStepSQL),
          CASE WHEN json_valid(add_step) THEN json_extract(add_step, '$[0]') END,
          CASE WHEN json_valid(add_step) THEN json_type(add_step, '$[3]') END,
          CASE WHEN json_valid(add_step) THEN json_type(add_step, '$[4]') END,
          CASE WHEN json_valid(add_step) THEN json_extract(add_step, '$[3]') END,
          CASE WHEN json_valid(add_step) THEN json_extract(add_step, '$[4]') END
        FROM entry WHERE add_step IS NOT NULL
          AND (rowid > \(LogStore.entryStepMarkSQL) OR rowid = (SELECT max(rowid) FROM entry))
        ORDER BY rowid
        """
    ).forEachRow { row in
      let entry = CheckText.shown(row[0] as String)
      guard (row[1] as Int64?) == 1 else {
        report.add(
          "log: entry \(entry)", "undo",
          "the undo step kept in it is not one lifelog reads, so it is not offered by undo")
        return
      }
      let place = "log: undo step \(row[2] as Int64) (kept in entry \(entry))"
      if !(1...LogStore.largestStepSeq).contains(row[2] as Int64) {
        report.add(place, "undo", LogStore.stepSeqOutOfRange)
      }
      let types = (row[3] as String?, row[4] as String?)
      if types == (nil, nil) { return }
      guard types == ("integer", "integer") else {
        report.add(place, "clock", "its clock is not two whole numbers")
        return
      }
      LogStore.checkStepClock(
        place: place, milliseconds: row[5], counter: row[6], into: &report)
    }
  }

  /// Adds a problem when a step's clock is half missing or does not fit in a stamp.
  static func checkStepClock(
    place: String, milliseconds: Int64?, counter: Int64?, into report: inout CheckReport
  ) {
    guard let milliseconds, let counter else {
      report.add(place, "clock", "its clock is missing its milliseconds or its counter")
      return
    }
    guard let counter = Int(exactly: counter),
      HybridClock.fitsInStamp(milliseconds: milliseconds, counter: counter)
    else {
      report.add(
        place, "clock", "its clock (\(milliseconds) ms, counter \(counter)) does not fit in a stamp"
      )
      return
    }
  }
}
