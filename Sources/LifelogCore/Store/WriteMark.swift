import LifelogSQLite

/// What a write transaction leaves in the log that tells, read back by a fresh connection,
/// whether it committed: the `lifelog undo` step it recorded, the step it reverted, or the remote
/// it added (`remote add` records no undo step).
///
/// After a `COMMIT` fails (a failed `fdatasync`, a full disk), SQLite's WAL may still hold the
/// whole transaction, and the next process to open the log keeps it. Whether it does can only be
/// found out by looking, so a command can say "saved" or "not saved" truthfully.
public enum WriteMark: Equatable, Sendable {
  /// The write recorded this undo step: it is in the log when the step is.
  case stepRecorded(seq: Int64, description: String)
  /// The write reverted (and removed) this undo step: it is in the log when the step is gone.
  case stepUndone(seq: Int64, description: String)
  /// The write added this remote: it is in the log when a remote of that name has that id.
  case remoteAdded(name: String, remoteID: String)

  /// What the command did, as its undo step describes it (`add breakfast … 1a2b3c4d`).
  public var description: String {
    switch self {
    case .stepRecorded(_, let description), .stepUndone(_, let description): return description
    case .remoteAdded(let name, _): return "remote add \(name)"
    }
  }

  /// Whether the write is in the log at `path`, as a new process opening it would see it.
  ///
  /// Call only once every connection of this process to the log is closed: a connection still
  /// open keeps the shared WAL index from before the failure, which hides a kept transaction.
  /// The fresh, read-only connection opened here rebuilds that index from the WAL.
  public func isInLog(at path: String) throws -> Bool {
    let database = try Database(path: path, mode: .readOnly)
    switch self {
    case .stepRecorded(let seq, let description):
      return try stepDescription(seq, in: database) == description
    case .stepUndone(let seq, let description):
      return try stepDescription(seq, in: database) != description
    case .remoteAdded(let name, let remoteID):
      return try database.cachedStatement(
        sql: "SELECT 1 FROM sync_remote WHERE name = ? AND remote_id = ?"
      ).first([name, remoteID]) { _ in true } == true
    }
  }

  /// The description of step `seq`, in the table or, at schema v8, kept in the row of the entry
  /// it added (one of the entries past the mark: ``LogStore/entryStepMarkSQL``).
  private func stepDescription(_ seq: Int64, in database: Database) throws -> String? {
    let inTable = try database.cachedStatement(
      sql: "SELECT description FROM local_undo_step WHERE seq = ?"
    ).first([seq]) { (row: Row) -> String in row[0] }
    guard inTable == nil,
      try database.cachedStatement(
        sql: "SELECT 1 FROM pragma_table_info('entry') WHERE name = 'add_step'"
      ).first([], { _ in true }) == true
    else { return inTable }
    return try database.cachedStatement(
      sql: """
        SELECT json_extract(add_step, '$[2]') FROM entry
        WHERE rowid > \(LogStore.entryStepMarkSQL) AND \(LogStore.validEntryStepSQL)
          AND CASE WHEN json_valid(add_step) THEN json_extract(add_step, '$[0]') END = ?
        """
    ).first([seq]) { (row: Row) -> String in row[0] }
  }
}
