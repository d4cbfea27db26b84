extension PostgresStore {
  public func latestKeyEnvelope(user: Int64) throws -> KeyEnvelope? {
    let result = try connection.query(
      "SELECT version, bytes FROM key_envelopes WHERE user_id = $1 ORDER BY version DESC LIMIT 1",
      [user])
    return result.count > 0
      ? KeyEnvelope(version: result.int64(0, 0), bytes: result.bytes(0, 1)) : nil
  }

  /// Inserts only when `version` is the newest + 1 (and version 1 only into an account that holds
  /// no batch or snapshot yet), on the primary key (user, version): of two
  /// processes storing the same version at once, one inserts and the other waits for it, finds
  /// the row and compares; neither reads first and writes after.
  public func putKeyEnvelope(
    user: Int64, version: Int64, bytes: [UInt8]
  ) throws
    -> PutOutcome
  {
    let inserted = try connection.query(
      """
      INSERT INTO key_envelopes (user_id, version, bytes, received)
      SELECT $1::bigint, $2::bigint, $3::bytea, $4::bigint
      WHERE $2 = (SELECT coalesce(max(version), 0) + 1 FROM key_envelopes WHERE user_id = $1)
        AND ($2 <> 1 OR NOT (EXISTS (SELECT 1 FROM batches WHERE user_id = $1)
          OR EXISTS (SELECT 1 FROM snapshots WHERE user_id = $1)))
      ON CONFLICT (user_id, version) DO NOTHING RETURNING 1
      """, [user, version, bytes, ServerClock.milliseconds()])
    if inserted.count == 1 { return .created }
    let stored = try connection.query(
      "SELECT bytes FROM key_envelopes WHERE user_id = $1 AND version = $2", [user, version])
    return stored.count == 1 && stored.bytes(0, 0) == bytes ? .exists : .conflict
  }
}
