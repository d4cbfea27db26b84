import LifelogCore
import LifelogProtocol

extension PostgresStore {
  public func putShare(_ share: NewShare) throws -> ShareStoring {
    let passcode: (any PostgresParameter)? = share.passcodeSHA256
    return try write {
      // One share of a user at a time: the count below holds until this commits.
      try connection.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [share.user])
      // Every expired report's ciphertext goes now, not only when someone asks for it.
      try connection.query(
        "UPDATE shares SET bytes = NULL WHERE expires <= $1 AND bytes IS NOT NULL", [share.created])
      let active = try connection.query(
        "SELECT count(*) FROM shares WHERE user_id = $1 AND bytes IS NOT NULL", [share.user])
      guard active.int64(0, 0) < Int64(ShareRules.maximumActivePerUser) else { return .tooMany }
      let inserted = try connection.query(
        """
        INSERT INTO shares (id, user_id, range_from, range_to, created, expires, passcode_sha256, bytes)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING 1
        """,
        [
          share.id, share.user, share.from, share.to, share.created, share.expires,
          passcode ?? PostgresNull(), share.bytes,
        ])
      return inserted.count == 1 ? .stored : .idTaken
    }
  }

  public func shares(user: Int64) throws -> [ShareSummary] {
    let now = ServerClock.milliseconds()
    let result = try connection.query(
      """
      SELECT id, range_from, range_to, created, expires, opened, last_opened, revoked, failures,
        (passcode_sha256 IS NOT NULL)::integer
      FROM shares WHERE user_id = $1 ORDER BY created DESC, id COLLATE "C"
      """, [user])
    return result.map {
      let hasPasscode = result.bool($0, 9)
      return ShareSummary(
        id: result.text($0, 0), from: result.text($0, 1), to: result.text($0, 2),
        created: result.int64($0, 3), expires: result.int64($0, 4), opened: result.int($0, 5),
        lastOpened: result.isNull($0, 6) ? nil : result.int64($0, 6),
        state: ShareRules.state(
          revoked: result.bool($0, 7), expires: result.int64($0, 4), failures: result.int($0, 8),
          hasPasscode: hasPasscode, now: now),
        hasPasscode: hasPasscode)
    }
  }

  public func revokeShare(user: Int64, id: String, now: Int64) throws -> Bool {
    try connection.query(
      "UPDATE shares SET revoked = 1, bytes = NULL WHERE user_id = $1 AND id = $2 RETURNING 1",
      [user, id]
    ).count == 1
  }

  public func sharePasscode(id: String) throws -> String? {
    let found = try connection.query("SELECT passcode_sha256 FROM shares WHERE id = $1", [id])
    return found.count == 1 && !found.isNull(0, 0) ? found.text(0, 0) : nil
  }

  public func legacySharePasscodes() throws -> [(id: String, stored: String)] {
    let found = try connection.query(
      "SELECT id, passcode_sha256 FROM shares WHERE passcode_sha256 NOT LIKE 'pbkdf2-%'", [])
    return found.map { (id: found.text($0, 0), stored: found.text($0, 1)) }
  }

  public func replaceSharePasscode(id: String, old: String, new: String) throws {
    try connection.query(
      "UPDATE shares SET passcode_sha256 = $1 WHERE id = $2 AND passcode_sha256 = $3",
      [new, id, old])
  }

  public func openShare(id: String, passcodeSHA256: String?, now: Int64) throws -> ShareOpening {
    // An unknown id, what a guesser sends, costs a read, not a write transaction.
    guard try connection.query("SELECT 1 FROM shares WHERE id = $1", [id]).count == 1 else {
      return .unknown
    }
    return try write {
      let found = try connection.query(
        """
        SELECT expires, revoked, (bytes IS NOT NULL)::integer, passcode_sha256, failures
        FROM shares WHERE id = $1 FOR UPDATE
        """, [id])
      guard found.count == 1 else { return .unknown }
      let record = ShareRecord(
        expires: found.int64(0, 0), revoked: found.bool(0, 1), hasBytes: found.bool(0, 2),
        passcodeSHA256: found.isNull(0, 3) ? nil : found.text(0, 3), failures: found.int(0, 4))
      let decision = ShareRules.decide(record, passcodeSHA256: passcodeSHA256, now: now)
      if decision.dropBytes {
        try connection.query("UPDATE shares SET bytes = NULL WHERE id = $1", [id])
      }
      if decision.failed {
        try connection.query("UPDATE shares SET failures = failures + 1 WHERE id = $1", [id])
      }
      guard decision.countOpening else { return decision.0 }
      let opened = try connection.query(
        "UPDATE shares SET opened = opened + 1, last_opened = $1 WHERE id = $2 RETURNING bytes",
        [now, id])
      return .content(opened.bytes(0, 0))
    }
  }
}

/// SQL NULL as a parameter.
private struct PostgresNull: PostgresParameter {
  var postgresValue: [CChar]? { nil }
}
