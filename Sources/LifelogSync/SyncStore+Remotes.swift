import LifelogCore

/// What this log remembers about one remote.
public struct RemoteRecord: Equatable, Sendable {
  public var name: String
  public var url: String
  /// The id in the remote's manifest, checked on every sync so a different remote is refused.
  public var remoteID: String
  /// Where pulling resumes; opaque to the engine.
  public var cursor: String
  /// The newest of this device's batches the remote has acknowledged.
  public var pushedSeq: Int
  /// The newest snapshot merged from this remote.
  public var snapshot: String
  public var lastSyncAt: Int64?
  public var lastOutcome: String?
  /// Warnings of the last sync about files that could not be read, one description each.
  public var skipped: [String]
  /// Batches and snapshots the last sync did not merge (kept in the `skipped` column, one
  /// ``HeldBatch`` line each, so no schema change was needed).
  public var held: [HeldBatch] = []
  /// How far ahead of this machine's clock the newest stamp received was, in milliseconds.
  public var clockSkewMilliseconds: Int64
  /// The bearer token of an HTTP remote (kept in the log, which only its owner can read).
  public var token: String?
  /// The data key of an encrypted remote (kept in the log likewise); nil for a plain remote.
  public var dataKey: [UInt8]?

  /// How batches are stored on this remote.
  public var envelope: BatchEnvelope {
    dataKey.map { .sealed(remoteID: remoteID, dataKey: $0) } ?? .plain
  }
}

extension SyncStore {
  public func remotes() throws -> [RemoteRecord] {
    try database.cachedStatement(
      sql: """
        SELECT name, url, remote_id, cursor, pushed_seq, snapshot, last_sync_at, last_outcome, skipped,
          clock_skew_ms, token, data_key FROM sync_remote ORDER BY name
        """
    ).map { row in
      let skipped: String = row[8]
      let lines = skipped.isEmpty ? [] : skipped.split(separator: "\n").map(String.init)
      var record = RemoteRecord(
        name: row[0], url: row[1], remoteID: row[2], cursor: row[3], pushedSeq: row[4],
        snapshot: row[5],
        lastSyncAt: row[6], lastOutcome: row[7],
        skipped: lines.filter { HeldBatch(line: $0) == nil },
        clockSkewMilliseconds: row[9], token: row[10], dataKey: row[11])
      record.held = lines.compactMap(HeldBatch.init(line:))
      return record
    }
  }

  public func remote(named name: String) throws -> RemoteRecord? {
    try remotes().first { $0.name == name }
  }

  public func addRemote(
    name: String, url: String, remoteID: String, token: String? = nil, dataKey: [UInt8]? = nil
  ) throws {
    try log.inTransaction {
      if try remote(named: name) != nil {
        throw InputError(
          "A remote named '\(name)' already exists; remove it first or pick another name")
      }
      try database.execute(
        sql:
          "INSERT INTO sync_remote (name, url, remote_id, token, data_key) VALUES (?, ?, ?, ?, ?)",
        arguments: [name, url, remoteID, token, dataKey])
      log.pendingWriteMark = .remoteAdded(name: name, remoteID: remoteID)
    }
  }

  public func removeRemote(named name: String) throws {
    try log.inTransaction {
      guard try remote(named: name) != nil else {
        throw InputError("No remote is named '\(name)'; see 'lifelog remote list'")
      }
      try database.execute(sql: "DELETE FROM sync_remote WHERE name = ?", arguments: [name])
    }
  }

  func setPushed(_ seq: Int, remote: String) throws {
    try log.inTransaction {
      try database.execute(
        sql: "UPDATE sync_remote SET pushed_seq = max(pushed_seq, ?) WHERE name = ?",
        arguments: [seq, remote])
    }
  }

  func setSnapshot(_ snapshot: String, remote: String) throws {
    try log.inTransaction {
      try database.execute(
        sql: "UPDATE sync_remote SET snapshot = ? WHERE name = ?", arguments: [snapshot, remote])
    }
  }

  /// Records how a sync with `remote` ended.
  func recordOutcome(
    remote: String, at time: Int64, outcome: String, skipped: [String], held: [HeldBatch],
    clockSkewMilliseconds: Int64?
  ) throws {
    let lines =
      skipped.map { String($0.map { $0 == "\n" || $0 == "\r" ? " " : $0 }) } + held.map(\.line)
    try log.inTransaction {
      try database.execute(
        sql: """
          UPDATE sync_remote SET last_sync_at = ?, last_outcome = ?, skipped = ?,
            clock_skew_ms = coalesce(?, clock_skew_ms) WHERE name = ?
          """,
        arguments: [time, outcome, lines.joined(separator: "\n"), clockSkewMilliseconds, remote])
    }
  }
}
