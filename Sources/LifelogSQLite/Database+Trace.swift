import CSQLite

extension Database {
  /// Runs `body` and returns, with its result, the SQL of every statement this connection ran
  /// meanwhile (SQLite's own trace, `SQLITE_TRACE_STMT`), `BEGIN` and `COMMIT` included.
  ///
  /// For tests that check how a command reads: in one transaction, by which queries. A statement
  /// is listed each time it starts, as SQLite prepared it (parameters unexpanded); statements of
  /// triggers start with `--`.
  public func statements<T>(runBy body: () throws -> T) throws -> (result: T, sql: [String]) {
    let recorder = TraceRecorder()
    let context = Unmanaged.passUnretained(recorder).toOpaque()
    sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), Database.traced, context)
    defer { sqlite3_trace_v2(handle, 0, nil, nil) }
    let result = try withExtendedLifetime(recorder) { try body() }
    return (result, recorder.sql)
  }

  /// The trace callback: for `SQLITE_TRACE_STMT`, `text` is the statement's SQL.
  private static let traced:
    @convention(c) (
      UInt32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
    ) -> Int32 = { _, context, _, text in
      guard let context, let text else { return 0 }
      Unmanaged<TraceRecorder>.fromOpaque(context).takeUnretainedValue().sql.append(
        String(cString: text.assumingMemoryBound(to: CChar.self)))
      return 0
    }
}

/// What ``Database/statements(runBy:)`` collects.
private final class TraceRecorder {
  var sql: [String] = []
}
