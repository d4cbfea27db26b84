import LifelogSQLite

/// Whether a log's file is really damaged: `PRAGMA quick_check` on a fresh read-only connection.
///
/// SQLite calls a page it could not read properly "malformed"; a passing read error does that
/// too, so a command says "damaged" only when this check agrees.
enum LogIntegrity {
  enum Finding {
    case intact
    /// The first problem the check names.
    case damaged(String)
    /// The check itself could not read the log.
    case unreadable(SQLiteError)
  }

  static func quickCheck(_ path: String) -> Finding {
    do {
      let database = try Database(path: path, mode: .readOnly)
      let first: String? = try database.makeStatement(sql: "PRAGMA quick_check(1)").first {
        (row: Row) -> String in row[0]
      }
      return first == "ok" ? .intact : .damaged(first ?? "no answer")
    } catch let error as SQLiteError where error.isCorruption {
      return .damaged(error.message)
    } catch let error as SQLiteError {
      return .unreadable(error)
    } catch {
      return .damaged("\(error)")
    }
  }
}
