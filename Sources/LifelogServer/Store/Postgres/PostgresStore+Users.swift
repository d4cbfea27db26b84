import LifelogCore

extension PostgresStore {
  public func addUser(name: String, tokenSHA256: String) throws -> ServerUser {
    guard ServerUser.isValidName(name) else {
      throw InputError("User name '\(name)' must be 1–64 letters, digits, '.', '_' or '-'")
    }
    let remoteID = UUIDText.random()
    let inserted = try connection.query(
      """
      INSERT INTO users (name, token_sha256, remote_id, created) VALUES ($1, $2, $3, $4)
      ON CONFLICT (name) DO NOTHING RETURNING id
      """, [name, tokenSHA256, remoteID, ServerClock.milliseconds()])
    guard inserted.count == 1 else {
      throw InputError(
        "A user named '\(name)' already exists; use 'lifelog serve user token \(name)' for a new token"
      )
    }
    return ServerUser(id: inserted.int64(0, 0), name: name, remoteID: remoteID)
  }

  public func setToken(name: String, tokenSHA256: String) throws {
    let updated = try connection.query(
      "UPDATE users SET token_sha256 = $1 WHERE name = $2 RETURNING id", [tokenSHA256, name])
    guard updated.count == 1 else {
      throw InputError("No user is named '\(name)'; see 'lifelog serve user list'")
    }
  }

  @discardableResult
  public func removeUser(name: String) throws -> (batches: Int, snapshots: Int) {
    try write {
      let removed = try connection.query("DELETE FROM users WHERE name = $1 RETURNING id", [name])
      guard removed.count == 1 else {
        throw InputError("No user is named '\(name)'; see 'lifelog serve user list'")
      }
      let id = removed.int64(0, 0)
      let batches = try connection.query(
        "WITH gone AS (DELETE FROM batches WHERE user_id = $1 RETURNING 1) SELECT count(*) FROM gone",
        [id]
      ).int(0, 0)
      let snapshots = try connection.query(
        "WITH gone AS (DELETE FROM snapshots WHERE user_id = $1 RETURNING 1) SELECT count(*) FROM gone",
        [id]
      ).int(0, 0)
      try connection.query("DELETE FROM key_envelopes WHERE user_id = $1", [id])
      try removeDevices(user: id)
      return (batches, snapshots)
    }
  }

  public func user(named name: String) throws -> ServerUser? {
    try oneUser("SELECT id, name, remote_id FROM users WHERE name = $1", name)
  }

  public func user(tokenSHA256: String) throws -> ServerUser? {
    try oneUser("SELECT id, name, remote_id FROM users WHERE token_sha256 = $1", tokenSHA256)
  }

  public func user(id: Int64) throws -> ServerUser? {
    try oneUser("SELECT id, name, remote_id FROM users WHERE id = $1", id)
  }

  public func users() throws -> [UserSummary] {
    let result = try connection.query(
      """
      SELECT name, created,
        (SELECT count(*) FROM batches WHERE user_id = users.id AND bytes IS NOT NULL),
        (SELECT count(*) FROM snapshots WHERE user_id = users.id),
        (coalesce((SELECT sum(size) FROM batches WHERE user_id = users.id AND bytes IS NOT NULL), 0)
          + coalesce((SELECT sum(size) FROM snapshots WHERE user_id = users.id), 0))::bigint
      FROM users ORDER BY name COLLATE "C"
      """)
    return result.map {
      UserSummary(
        name: result.text($0, 0), created: result.int64($0, 1), batches: result.int($0, 2),
        snapshots: result.int($0, 3), bytes: result.int64($0, 4))
    }
  }

  private func oneUser(_ sql: String, _ key: any PostgresParameter) throws -> ServerUser? {
    let result = try connection.query(sql, [key])
    guard result.count > 0 else { return nil }
    return ServerUser(id: result.int64(0, 0), name: result.text(0, 1), remoteID: result.text(0, 2))
  }
}
