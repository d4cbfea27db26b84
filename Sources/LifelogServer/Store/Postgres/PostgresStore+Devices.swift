import LifelogCore
import LifelogProtocol

extension PostgresStore {
  public func addPairing(
    user: Int64, name: String, codeSHA256: String, expires: Int64
  ) throws -> Bool {
    try write {
      try connection.query("DELETE FROM pairings WHERE expires <= $1", [ServerClock.milliseconds()])
      let taken = try connection.query(
        "SELECT 1 FROM devices WHERE user_id = $1 AND name = $2", [user, name])
      if taken.count > 0 { return false }
      try connection.query(
        "INSERT INTO pairings (code_sha256, user_id, name, expires) VALUES ($1, $2, $3, $4)",
        [codeSHA256, user, name, expires])
      return true
    }
  }

  public func redeemPairing(
    codeSHA256: String, tokenSHA256: String, now: Int64
  ) throws -> PairingRedemption {
    // An unknown code, what a guesser sends, costs a read, not a write transaction.
    let known = try connection.query(
      "SELECT 1 FROM pairings WHERE code_sha256 = $1", [codeSHA256])
    guard known.count == 1 else { return .unknown }
    return try write {
      let found = try connection.query(
        "DELETE FROM pairings WHERE code_sha256 = $1 RETURNING user_id, name, expires",
        [codeSHA256])
      guard found.count == 1, found.int64(0, 2) > now,
        let user = try user(id: found.int64(0, 0))
      else { return .unknown }
      let name = found.text(0, 1)
      // Of two codes for one name redeemed at once, the unique key lets one in.
      let inserted = try connection.query(
        """
        INSERT INTO devices (user_id, name, token_sha256, created) VALUES ($1, $2, $3, $4)
        ON CONFLICT (user_id, name) DO NOTHING RETURNING 1
        """, [user.id, name, tokenSHA256, now])
      return inserted.count == 1 ? .paired(user: user, name: name) : .nameTaken(name)
    }
  }

  public func device(tokenSHA256: String) throws -> PairedDevice? {
    let result = try connection.query(
      """
      SELECT users.id, users.name, users.remote_id, devices.name, devices.last_used
      FROM devices JOIN users ON users.id = devices.user_id WHERE devices.token_sha256 = $1
      """, [tokenSHA256])
    guard result.count > 0 else { return nil }
    return PairedDevice(
      user: ServerUser(
        id: result.int64(0, 0), name: result.text(0, 1), remoteID: result.text(0, 2)),
      name: result.text(0, 3), lastUsed: result.isNull(0, 4) ? nil : result.int64(0, 4))
  }

  public func touchDevice(user: Int64, name: String, now: Int64) throws {
    try connection.query(
      "UPDATE devices SET last_used = $1 WHERE user_id = $2 AND name = $3", [now, user, name])
  }

  public func devices(user: Int64) throws -> [DeviceSummary] {
    let result = try connection.query(
      "SELECT name, created, last_used FROM devices WHERE user_id = $1 ORDER BY name COLLATE \"C\"",
      [user])
    return result.map {
      DeviceSummary(
        name: result.text($0, 0), created: result.int64($0, 1),
        lastUsed: result.isNull($0, 2) ? nil : result.int64($0, 2))
    }
  }

  public func removeDevice(user: Int64, name: String) throws -> Bool {
    try write {
      let removed =
        try connection.query(
          "DELETE FROM devices WHERE user_id = $1 AND name = $2 RETURNING 1", [user, name]
        ).count == 1
      try connection.query("DELETE FROM pairings WHERE user_id = $1 AND name = $2", [user, name])
      return removed
    }
  }

  /// Drops a removed user's devices, pending codes and shares (inside ``removeUser(name:)``'s
  /// transaction).
  func removeDevices(user: Int64) throws {
    try connection.query("DELETE FROM devices WHERE user_id = $1", [user])
    try connection.query("DELETE FROM pairings WHERE user_id = $1", [user])
    try connection.query("DELETE FROM shares WHERE user_id = $1", [user])
  }
}
