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

  /// How many checks must find the same damage before it is called damage.
  static let confirmingChecks = 3

  /// Damage only when every one of ``confirmingChecks`` checks names the same problem.
  ///
  /// ``quickCheck(_:)`` runs until it finds the log intact, or that many times. A disk that
  /// fails reads for a while makes SQLite read a page short (reported as damage) in one check
  /// and not the next; a damaged file reads the same every time.
  static func confirmedCheck(_ path: String) -> Finding {
    var findings: [String] = []
    var unreadable: SQLiteError?
    for _ in 0..<confirmingChecks {
      switch quickCheck(path) {
      case .intact: return .intact
      case .damaged(let finding): findings.append(finding)
      case .unreadable(let error): unreadable = error
      }
    }
    if findings.count == confirmingChecks, Set(findings).count == 1 { return .damaged(findings[0]) }
    return .unreadable(
      unreadable
        ?? SQLiteError(
          code: 10, message: "the checks read it differently: " + findings.joined(separator: "; ")))
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
