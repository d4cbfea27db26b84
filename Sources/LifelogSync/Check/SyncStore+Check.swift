import LifelogCore
import LifelogProtocol
import LifelogSQLite

/// `lifelog check` on the sync tables (docs/schema.md, schema v2): this device, the outbox, the
/// version vector, the queue and what is remembered about each remote. Only reads.
extension SyncStore {
  /// Checks the sync tables and adds what it finds to `report`; a log older than schema v2 has
  /// none, and nothing is checked.
  ///
  /// - Parameter progress: called after each outbox batch with the number read so far.
  public func check(into report: inout CheckReport, progress: (Int) -> Void = { _ in }) {
    guard (try? database.tableExists("sync_device")) == true else { return }
    report.count("outbox batches", 0)
    report.count("remotes", 0)
    var lastSeq = 0
    log.checking("this device", into: &report) { report in lastSeq = try checkDevice(into: &report)
    }
    log.checking("the outbox", into: &report) { report in
      try checkOutbox(lastSeq: lastSeq, into: &report, progress: progress)
    }
    log.checking("the sync queue", into: &report) { report in try checkQueue(into: &report) }
    log.checking("the remotes", into: &report) { report in
      try checkRemotes(lastSeq: lastSeq, into: &report)
    }
  }

  /// The device row: one, with an id usable in a remote's paths and a clock a stamp can hold.
  ///
  /// - Returns: the last batch seq made here.
  private func checkDevice(into report: inout CheckReport) throws -> Int {
    let rows = try database.makeStatement(
      sql: "SELECT id, clock_ms, clock_counter, last_seq FROM sync_device"
    )
    .map { row in (row[0] as String, row[1] as Int64, row[2] as Int, row[3] as Int) }
    guard let (id, milliseconds, counter, lastSeq) = rows.first else {
      report.add(
        "log: this device", "device",
        "the log has no device row, so it cannot make or merge batches")
      return 0
    }
    let place = "log: this device"
    if !APIPath.isName(id) {
      report.add(place, "device", "its id \(CheckText.quoted(id)) cannot name a folder on a remote")
    }
    if !HybridClock.fitsInStamp(milliseconds: milliseconds, counter: counter) {
      report.add(
        place, "clock", "its clock (\(milliseconds) ms, counter \(counter)) does not fit in a stamp"
      )
    }
    if lastSeq < 0 { report.add(place, "outbox", "its last batch number is \(lastSeq)") }
    let applied = try appliedVector()[id]
    if lastSeq > 0, applied != lastSeq {
      report.add(
        place, "vector",
        "it made \(lastSeq) batches, but its version vector says \(applied) of them are in the log")
    }
    return lastSeq
  }

  /// The outbox: seqs from 1 (or from the oldest batch a remote has not acknowledged), without
  /// gaps, up to the last seq made, each a batch of this device under its own number.
  private func checkOutbox(
    lastSeq: Int, into report: inout CheckReport, progress: (Int) -> Void
  ) throws {
    let device = try deviceID
    let acknowledged = try remotes().map(\.pushedSeq).min() ?? 0
    var previous: Int?
    var read = 0
    try database.makeStatement(sql: "SELECT seq, body FROM sync_outbox ORDER BY seq").forEachRow {
      row in
      let seq: Int = row[0]
      let body: [UInt8] = row[1]
      let place = "log: outbox batch \(seq)"
      let expected = (previous ?? 0) + 1
      // Batches every remote has acknowledged may one day be dropped from the outbox's start.
      let pruned = previous == nil && seq - 1 <= acknowledged
      if seq > expected, !pruned {
        report.add(
          "log: outbox", "outbox",
          "\(CheckText.range(expected, seq - 1)) made here \(seq - expected == 1 ? "is" : "are") missing, "
            + "so no remote can ever receive \(seq - expected == 1 ? "it" : "them")")
      }
      previous = seq
      read += 1
      report.count("outbox batches")
      progress(read)
      do {
        let batch = try BatchCodec.decode(body)
        if batch.kind != .batch || batch.device != device || batch.seq != seq {
          report.add(
            place, "outbox",
            "it holds \(batch.kind.rawValue) \(CheckText.shown(batch.device))/\(batch.seq), not batch \(seq) of this device"
          )
        }
      } catch {
        report.add(place, "outbox", "it does not decode: \(error)")
      }
    }
    let last = previous ?? 0
    if last < lastSeq {
      report.add(
        "log: outbox", "outbox",
        "\(CheckText.range(last + 1, lastSeq)) made here \(lastSeq - last == 1 ? "is" : "are") missing from its end"
      )
    } else if last > lastSeq {
      report.add(
        "log: outbox", "outbox",
        "it holds batch \(last), but this device has made only \(lastSeq): the next would reuse a number"
      )
    }
  }

  private func checkQueue(into report: inout CheckReport) throws {
    let known = SyncedEntity.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    let unknown =
      try database.makeStatement(
        sql: "SELECT count(*) FROM sync_pending WHERE entity NOT IN (\(known))"
      )
      .first { $0[0] as Int } ?? 0
    if unknown > 0 {
      report.add(
        "log: sync queue", "queue", "\(unknown) queued changes name no kind of row lifelog syncs")
    }
  }

  private func checkRemotes(lastSeq: Int, into report: inout CheckReport) throws {
    for remote in try remotes() {
      let place = "log: remote \(CheckText.quoted(remote.name))"
      report.count("remotes")
      if remote.pushedSeq < 0 || remote.pushedSeq > lastSeq {
        report.add(
          place, "remote",
          "it is recorded as holding batch \(remote.pushedSeq) of this device, which made \(lastSeq)"
        )
      }
      if let key = remote.dataKey, key.count != Sodium.keyBytes {
        report.add(
          place, "remote",
          "its data key is \(key.count) bytes, not \(Sodium.keyBytes): it cannot open anything")
      }
    }
  }
}

extension CheckText {
  /// `batch 4` or `batches 4-9`.
  static func range(_ first: Int, _ last: Int) -> String {
    first == last ? "batch \(first)" : "batches \(first)-\(last)"
  }
}
