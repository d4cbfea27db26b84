import LifelogSQLite

/// Why the log could not be opened or used, as opposed to bad input (``InputError``).
public enum StoreError: Error, CustomStringConvertible {
  /// The database was written by a newer lifelog; it is left untouched.
  case newerSchema(path: String, unknownMigrations: [String])
  /// The file exists but is not a lifelog (or any SQLite) database.
  case notADatabase(path: String, reason: String)
  /// The folder or file could not be created or opened.
  case cannotOpen(path: String, reason: String)
  /// Another process held the database lock for longer than the busy timeout.
  case busy(path: String)
  /// Anything else SQLite reported.
  case sqlite(SQLiteError)

  public var description: String {
    switch self {
    case .newerSchema(let path, let unknown):
      return
        "The database '\(path)' was written by a newer lifelog (schema \(unknown.joined(separator: ", "))); "
        + "upgrade lifelog to use it. Nothing was changed"
    case .notADatabase(let path, let reason):
      return
        "'\(path)' is not a lifelog database (\(reason)); point --db or LIFELOG_DB at another file"
    case .cannotOpen(let path, let reason):
      return "Cannot open the database '\(path)': \(reason); check the path and its permissions"
    case .busy(let path):
      return "The database '\(path)' is busy: another process has held its lock too long; "
        + "try again in a moment"
    case .sqlite(let error):
      return error.description
    }
  }

  /// Wraps an SQLite error, naming the common cases (busy, not a database) for people.
  static func wrapping(_ error: SQLiteError, path: String) -> StoreError {
    if error.isBusy { return .busy(path: path) }
    // 26 is SQLITE_NOTADB.
    if error.primaryCode == 26 { return .notADatabase(path: path, reason: error.message) }
    // 14 is SQLITE_CANTOPEN.
    if error.primaryCode == 14 { return .cannotOpen(path: path, reason: error.message) }
    return .sqlite(error)
  }
}
