extension LogStore {
  /// Makes a recovered log sync as a new device that holds every row it has: a new device id,
  /// no batches made or merged, every remote read again from its start, every row queued.
  ///
  /// A damaged page may have cost rows this device had already pushed; a remote excludes a
  /// device's own batches from what it pulls, so only under a new id do they come back. Rows
  /// keep their stamps, so sending them again changes nothing elsewhere; what was pending is sent.
  /// Run inside a write transaction.
  func restartSync() throws {
    try database.execute(
      sql: """
        DELETE FROM sync_outbox;
        DELETE FROM sync_applied;
        DELETE FROM sync_pending;
        UPDATE sync_remote SET cursor = '', pushed_seq = 0, snapshot = '';
        INSERT INTO sync_pending (entity, id) SELECT 'activity', id FROM activity WHERE stamps != '' ORDER BY rowid;
        INSERT INTO sync_pending (entity, id)
          SELECT 'entry', \(StoredEntryID.text(of: "id")) FROM entry ORDER BY rowid;
        INSERT INTO sync_pending (entity, id) SELECT 'setting', key FROM setting WHERE stamps != '' ORDER BY rowid;
        """)
    try database.execute(
      sql: "UPDATE sync_device SET id = ?, last_seq = 0", arguments: [UUIDText.random()])
    try markEntriesQueued()
    // The clock the undo steps kept, in the device row too, should the steps not survive.
    try saveClock(clock())
    cachedDeviceID = nil
  }
}
