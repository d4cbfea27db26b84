/// Why `lifelog recover` could not build a new log; nothing was changed when it is thrown.
public enum RecoveryError: Error, CustomStringConvertible, Equatable {
  /// The file is an SQLite database (or was), but not even its table of tables can be read.
  case nothingReadable(path: String)
  /// The file is not an SQLite database, or one without lifelog's tables.
  case notALog(path: String)
  /// The new log failed SQLite's integrity check (a bug: the damaged file is left as it was).
  case newLogDamaged(path: String, finding: String)

  public var description: String {
    switch self {
    case .nothingReadable(let path):
      return
        "Nothing can be read from '\(path)': SQLite cannot read even its list of tables. Nothing was "
        + "changed; restore a backup, or build a new log from a remote with 'lifelog remote add' "
        + "and 'lifelog sync' (move the damaged file aside first)"
    case .notALog(let path):
      return
        "'\(path)' is not a lifelog log (not an SQLite database with lifelog's tables), so there is "
        + "nothing to recover. Nothing was changed; check the path (--db or LIFELOG_DB)"
    case .newLogDamaged(let path, let finding):
      return
        "The recovered log '\(path)' failed SQLite's integrity check (\(finding)); it was deleted "
        + "and the damaged log left as it was. Please report this"
    }
  }
}
