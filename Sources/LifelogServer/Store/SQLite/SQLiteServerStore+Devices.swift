import LifelogCore
import LifelogProtocol
import LifelogSQLite

extension SQLiteServerStore {
  public func addPairing(
    user: Int64, name: String, codeSHA256: String, expires: Int64
  ) throws -> Bool {
    try write {
      try database.execute(
        sql: "DELETE FROM pairings WHERE expires <= ?", arguments: [ServerClock.milliseconds()])
      let taken = try database.cachedStatement(
        sql: "SELECT 1 FROM devices WHERE user_id = ? AND name = ?"
      ).first([user, name]) { $0[0] as Int64 }
      if taken != nil { return false }
      try database.execute(
        sql: "INSERT INTO pairings (code_sha256, user_id, name, expires) VALUES (?, ?, ?, ?)",
        arguments: [codeSHA256, user, name, expires])
      return true
    }
  }

  public func redeemPairing(
    codeSHA256: String, tokenSHA256: String, now: Int64
  ) throws -> PairingRedemption {
    // An unknown code, what a guesser sends, costs a read, not a write transaction.
    let known = try database.cachedStatement(sql: "SELECT 1 FROM pairings WHERE code_sha256 = ?")
      .first([codeSHA256]) { $0[0] as Int64 }
    guard known != nil else { return .unknown }
    return try write {
      let found = try database.cachedStatement(
        sql: "DELETE FROM pairings WHERE code_sha256 = ? RETURNING user_id, name, expires"
      ).first([codeSHA256]) { ($0[0] as Int64, $0[1] as String, $0[2] as Int64) }
      guard let (userID, name, expires) = found, expires > now,
        let user = try user(id: userID)
      else { return .unknown }
      let taken = try database.cachedStatement(
        sql: "SELECT 1 FROM devices WHERE user_id = ? AND name = ?"
      ).first([userID, name]) { $0[0] as Int64 }
      if taken != nil { return .nameTaken(name) }
      try database.execute(
        sql: "INSERT INTO devices (user_id, name, token_sha256, created) VALUES (?, ?, ?, ?)",
        arguments: [userID, name, tokenSHA256, now])
      return .paired(user: user, name: name)
    }
  }

  public func device(tokenSHA256: String) throws -> PairedDevice? {
    try database.cachedStatement(
      sql: """
        SELECT users.id, users.name, users.remote_id, devices.name, devices.last_used
        FROM devices JOIN users ON users.id = devices.user_id WHERE devices.token_sha256 = ?
        """
    ).first([tokenSHA256]) {
      PairedDevice(
        user: ServerUser(id: $0[0], name: $0[1], remoteID: $0[2]), name: $0[3], lastUsed: $0[4])
    }
  }

  public func touchDevice(user: Int64, name: String, now: Int64) throws {
    try write {
      try database.execute(
        sql: "UPDATE devices SET last_used = ? WHERE user_id = ? AND name = ?",
        arguments: [now, user, name])
    }
  }

  public func devices(user: Int64) throws -> [DeviceSummary] {
    try database.cachedStatement(
      sql: "SELECT name, created, last_used FROM devices WHERE user_id = ? ORDER BY name"
    ).map([user]) { DeviceSummary(name: $0[0], created: $0[1], lastUsed: $0[2]) }
  }

  public func removeDevice(user: Int64, name: String) throws -> Bool {
    try write {
      try database.execute(
        sql: "DELETE FROM devices WHERE user_id = ? AND name = ?", arguments: [user, name])
      let removed = database.changes == 1
      try database.execute(
        sql: "DELETE FROM pairings WHERE user_id = ? AND name = ?", arguments: [user, name])
      return removed
    }
  }

  /// Drops a removed user's devices, pending codes and shares (inside ``removeUser(name:)``'s
  /// transaction).
  func removeDevices(user: Int64) throws {
    try database.execute(sql: "DELETE FROM devices WHERE user_id = ?", arguments: [user])
    try database.execute(sql: "DELETE FROM pairings WHERE user_id = ?", arguments: [user])
    try database.execute(sql: "DELETE FROM shares WHERE user_id = ?", arguments: [user])
  }
}
