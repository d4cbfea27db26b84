import LifelogSQLite

extension SQLiteServerStore {
  /// The newest key envelope of `user`, or nil when none was stored (a remote without encryption).
  public func latestKeyEnvelope(user: Int64) throws -> KeyEnvelope? {
    try database.cachedStatement(
      sql:
        "SELECT version, bytes FROM key_envelopes WHERE user_id = ? ORDER BY version DESC LIMIT 1"
    ).first([user]) { KeyEnvelope(version: $0[0], bytes: $0[1]) }
  }

  /// Stores `bytes` as version `version` of the user's key envelope.
  ///
  /// Versions count up from 1 without gaps, and only the newest + 1 is accepted, so two machines
  /// that change the passphrase at once cannot both win: the second gets `.conflict`, reads the
  /// newest envelope and tries again with it. Version 1 makes a remote encrypted, so it is taken
  /// only by an account that holds no batch or snapshot yet: plain data must never sit in a
  /// remote that says it is encrypted.
  public func putKeyEnvelope(
    user: Int64, version: Int64, bytes: [UInt8]
  ) throws
    -> PutOutcome
  {
    try write {
      let stored = try database.cachedStatement(
        sql: "SELECT bytes FROM key_envelopes WHERE user_id = ? AND version = ?"
      ).first([user, version]) { $0[0] as [UInt8] }
      if let stored { return stored == bytes ? .exists : .conflict }
      let newest = try latestKeyEnvelope(user: user)?.version ?? 0
      guard version == newest + 1 else { return .conflict }
      if version == 1, try holdsData(user: user) { return .conflict }
      try database.cachedStatement(
        sql: "INSERT INTO key_envelopes (user_id, version, bytes, received) VALUES (?, ?, ?, ?)"
      ).execute([user, version, bytes, ServerClock.milliseconds()])
      return .created
    }
  }

  /// Whether the user has stored any batch or snapshot (compacted ones count).
  func holdsData(user: Int64) throws -> Bool {
    try database.cachedStatement(
      sql:
        "SELECT EXISTS (SELECT 1 FROM batches WHERE user_id = ?) OR EXISTS (SELECT 1 FROM snapshots WHERE user_id = ?)"
    ).first([user, user]) { $0[0] as Int } == 1
  }
}
