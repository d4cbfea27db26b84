import CSQLite

/// An error reported by SQLite, with the statement that caused it.
///
/// Bound values are never included, so a message can be shown or logged without leaking a note.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
  /// The extended result code (for example 2067 for `SQLITE_CONSTRAINT_UNIQUE`).
  public let code: Int32
  /// SQLite's own explanation.
  public let message: String
  /// The SQL that failed, when there was one.
  public let sql: String?

  public init(code: Int32, message: String, sql: String? = nil) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  /// The primary result code: the extended code with its detail bits removed.
  public var primaryCode: Int32 { code & 0xFF }

  /// Whether another connection held a lock for longer than the busy timeout.
  public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

  public var description: String {
    var text = "SQLite error \(code): \(message)"
    if let sql { text += " - while executing `\(sql)`" }
    return text
  }
}
