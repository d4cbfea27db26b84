import LifelogCore
import LifelogProtocol
import LifelogSQLite

extension SQLiteServerStore {
  public func putShare(_ share: NewShare) throws -> ShareStoring {
    try write {
      // Every expired report's ciphertext goes now, not only when someone asks for it.
      try database.execute(
        sql: "UPDATE shares SET bytes = NULL WHERE expires <= ? AND bytes IS NOT NULL",
        arguments: [share.created])
      let active =
        try database.cachedStatement(
          sql: "SELECT count(*) FROM shares WHERE user_id = ? AND bytes IS NOT NULL"
        ).first([share.user]) { $0[0] as Int } ?? 0
      guard active < ShareRules.maximumActivePerUser else { return .tooMany }
      try database.execute(
        sql: """
          INSERT INTO shares (id, user_id, range_from, range_to, created, expires, passcode_sha256, bytes)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
          """,
        arguments: [
          share.id, share.user, share.from, share.to, share.created, share.expires,
          share.passcodeSHA256, share.bytes,
        ])
      return database.changes == 1 ? .stored : .idTaken
    }
  }

  public func shares(user: Int64) throws -> [ShareSummary] {
    let now = ServerClock.milliseconds()
    return try database.cachedStatement(
      sql: """
        SELECT id, range_from, range_to, created, expires, opened, last_opened, revoked, failures,
          passcode_sha256 IS NOT NULL
        FROM shares WHERE user_id = ? ORDER BY created DESC, id
        """
    ).map([user]) {
      ShareSummary(
        id: $0[0], from: $0[1], to: $0[2], created: $0[3], expires: $0[4], opened: $0[5],
        lastOpened: $0[6],
        state: ShareRules.state(
          revoked: $0[7], expires: $0[4], failures: $0[8], hasPasscode: $0[9], now: now),
        hasPasscode: $0[9])
    }
  }

  public func revokeShare(user: Int64, id: String, now: Int64) throws -> Bool {
    try write {
      try database.execute(
        sql: "UPDATE shares SET revoked = 1, bytes = NULL WHERE user_id = ? AND id = ?",
        arguments: [user, id])
      return database.changes == 1
    }
  }

  public func sharePasscode(id: String) throws -> String? {
    try database.cachedStatement(sql: "SELECT passcode_sha256 FROM shares WHERE id = ?").first(
      [id]
    ) { $0[0] as String? } ?? nil
  }

  public func legacySharePasscodes() throws -> [(id: String, stored: String)] {
    try database.cachedStatement(
      sql: "SELECT id, passcode_sha256 FROM shares WHERE passcode_sha256 NOT LIKE 'pbkdf2-%'"
    ).map([]) { (id: $0[0] as String, stored: $0[1] as String) }
  }

  public func replaceSharePasscode(id: String, old: String, new: String) throws {
    try write {
      try database.execute(
        sql: "UPDATE shares SET passcode_sha256 = ? WHERE id = ? AND passcode_sha256 = ?",
        arguments: [new, id, old])
    }
  }

  public func openShare(id: String, passcodeSHA256: String?, now: Int64) throws -> ShareOpening {
    // An unknown id, what a guesser sends, costs a read, not a write transaction.
    let known = try database.cachedStatement(sql: "SELECT 1 FROM shares WHERE id = ?").first([id]) {
      $0[0] as Int64
    }
    guard known != nil else { return .unknown }
    return try write {
      let found = try database.cachedStatement(
        sql: """
          SELECT expires, revoked, bytes IS NOT NULL, passcode_sha256, failures FROM shares
          WHERE id = ?
          """
      ).first([id]) {
        ShareRecord(
          expires: $0[0], revoked: $0[1], hasBytes: $0[2], passcodeSHA256: $0[3], failures: $0[4])
      }
      guard let record = found else { return .unknown }
      let decision = ShareRules.decide(record, passcodeSHA256: passcodeSHA256, now: now)
      if decision.dropBytes {
        try database.execute(sql: "UPDATE shares SET bytes = NULL WHERE id = ?", arguments: [id])
      }
      if decision.failed {
        try database.execute(
          sql: "UPDATE shares SET failures = failures + 1 WHERE id = ?", arguments: [id])
      }
      guard decision.countOpening else { return decision.0 }
      try database.execute(
        sql: "UPDATE shares SET opened = opened + 1, last_opened = ? WHERE id = ?",
        arguments: [now, id])
      let bytes = try database.cachedStatement(sql: "SELECT bytes FROM shares WHERE id = ?").first(
        [id]
      ) { $0[0] as [UInt8] }
      return .content(bytes ?? [])
    }
  }
}
