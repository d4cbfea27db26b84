import LifelogCore
import LifelogSQLite

extension SQLiteServerStore {
  /// Adds a user whose token hashes to `tokenSHA256`.
  ///
  /// - Throws: `InputError` when the name is taken or malformed.
  public func addUser(name: String, tokenSHA256: String) throws -> ServerUser {
    guard ServerUser.isValidName(name) else {
      throw InputError("User name '\(name)' must be 1–64 letters, digits, '.', '_' or '-'")
    }
    return try write {
      if try user(named: name) != nil {
        throw InputError(
          "A user named '\(name)' already exists; use 'lifelog serve user token \(name)' for a new token"
        )
      }
      let remoteID = UUIDText.random()
      let id =
        try database.cachedStatement(
          sql:
            "INSERT INTO users (name, token_sha256, remote_id, created) VALUES (?, ?, ?, ?) RETURNING id"
        ).first([name, tokenSHA256, remoteID, ServerClock.milliseconds()]) { $0[0] as Int64 } ?? 0
      return ServerUser(id: id, name: name, remoteID: remoteID)
    }
  }

  /// Replaces a user's token; the old one stops working at once.
  public func setToken(name: String, tokenSHA256: String) throws {
    try write {
      try database.execute(
        sql: "UPDATE users SET token_sha256 = ? WHERE name = ?", arguments: [tokenSHA256, name])
      guard database.changes == 1 else {
        throw InputError("No user is named '\(name)'; see 'lifelog serve user list'")
      }
    }
  }

  /// Removes a user and everything they stored.
  ///
  /// - Returns: how many batches and snapshots were deleted.
  @discardableResult
  public func removeUser(name: String) throws -> (batches: Int, snapshots: Int) {
    try write {
      guard let user = try user(named: name) else {
        throw InputError("No user is named '\(name)'; see 'lifelog serve user list'")
      }
      try database.execute(sql: "DELETE FROM batches WHERE user_id = ?", arguments: [user.id])
      let batches = database.changes
      try database.execute(sql: "DELETE FROM snapshots WHERE user_id = ?", arguments: [user.id])
      let snapshots = database.changes
      try database.execute(sql: "DELETE FROM key_envelopes WHERE user_id = ?", arguments: [user.id])
      try removeDevices(user: user.id)
      try database.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [user.id])
      return (batches, snapshots)
    }
  }

  public func user(named name: String) throws -> ServerUser? {
    try database.cachedStatement(sql: "SELECT id, name, remote_id FROM users WHERE name = ?").first(
      [name]) {
        ServerUser(id: $0[0], name: $0[1], remoteID: $0[2])
      }
  }

  /// The user whose token hashes to `tokenSHA256`, if any.
  public func user(tokenSHA256: String) throws -> ServerUser? {
    try database.cachedStatement(
      sql: "SELECT id, name, remote_id FROM users WHERE token_sha256 = ?"
    ).first(
      [tokenSHA256]
    ) { ServerUser(id: $0[0], name: $0[1], remoteID: $0[2]) }
  }

  public func users() throws -> [UserSummary] {
    try database.cachedStatement(
      sql: """
        SELECT name, created,
          (SELECT count(*) FROM batches WHERE user_id = users.id AND bytes IS NOT NULL),
          (SELECT count(*) FROM snapshots WHERE user_id = users.id),
          coalesce((SELECT sum(size) FROM batches WHERE user_id = users.id AND bytes IS NOT NULL), 0)
            + coalesce((SELECT sum(size) FROM snapshots WHERE user_id = users.id), 0)
        FROM users ORDER BY name
        """
    ).map {
      UserSummary(name: $0[0], created: $0[1], batches: $0[2], snapshots: $0[3], bytes: $0[4])
    }
  }
}

extension SQLiteServerStore {
  public func user(id: Int64) throws -> ServerUser? {
    try database.cachedStatement(sql: "SELECT id, name, remote_id FROM users WHERE id = ?").first([
      id
    ]) {
      ServerUser(id: $0[0], name: $0[1], remoteID: $0[2])
    }
  }
}
