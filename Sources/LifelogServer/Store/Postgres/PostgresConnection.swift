import CLifelogPQ

/// One connection to PostgreSQL through libpq (loaded on first use, see `CLifelogPQ`).
///
/// Statements are prepared once per connection and run with parameters; results come in binary
/// format (``PostgresResult``). Like a SQLite `Database`, a connection serves one thread at a
/// time: the server lends it out through ``StorePool``.
final class PostgresConnection {
  private let handle: OpaquePointer
  /// Prepared statements by their SQL, named `s1`, `s2`, ….
  private var prepared: [String: String] = [:]

  /// Connects to `url` (`postgres://USER@HOST:PORT/DB`; a password from the URL, `PGPASSWORD`
  /// or `~/.pgpass`, as libpq reads them).
  ///
  /// - Throws: ``PostgresError`` when libpq is missing or the connection fails (its message
  ///   never holds the password).
  init(url: String) throws {
    var message = [CChar](repeating: 0, count: 512)
    guard lpq_load(&message, message.count) == 0 else {
      throw PostgresError(
        state: "",
        message: String(decoding: message.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self),
        connectionLost: true)
    }
    guard let handle = lpq_connect(PostgresConnection.withTimeouts(url)) else {
      throw PostgresError(state: "", message: "out of memory", connectionLost: true)
    }
    guard lpq_connection_ok(handle) != 0 else {
      let reason = PostgresError.trimmed(String(cString: lpq_connection_error(handle)))
      lpq_finish(handle)
      throw PostgresError(state: "08001", message: reason, connectionLost: true)
    }
    self.handle = handle
    // Keep notices ("relation … already exists, skipping") off the server's standard error.
    try execute("SET client_min_messages TO warning")
  }

  deinit { lpq_finish(handle) }

  /// libpq's timeouts, added to `url` unless it sets them: without them a database host that
  /// stops answering (a network split, a frozen VM) blocks a new connection for about 2 minutes
  /// and a query for up to 15, holding a server thread, instead of failing into a 503.
  static let timeouts = [
    ("connect_timeout", "5"), ("keepalives_idle", "30"), ("keepalives_interval", "10"),
    ("keepalives_count", "3"), ("tcp_user_timeout", "15000"),
  ]

  static func withTimeouts(_ url: String) -> String {
    let query = url.firstIndex(of: "?").map { url[url.index(after: $0)...] } ?? ""
    let given = Set(query.split(separator: "&").map { $0.prefix { $0 != "=" }.lowercased() })
    let missing = timeouts.filter { !given.contains($0.0) }.map { $0.0 + "=" + $0.1 }
    guard !missing.isEmpty else { return url }
    return url + (url.contains("?") ? "&" : "?") + missing.joined(separator: "&")
  }

  /// Whether the connection to the database is gone (the server restarted, or ended this backend).
  var isBroken: Bool { lpq_connection_ok(handle) == 0 }

  /// Runs SQL without parameters: one statement or several separated by `;`.
  func execute(_ sql: String) throws {
    let result = lpq_exec_simple(handle, sql)
    defer { lpq_clear(result) }
    try check(result)
  }

  /// Runs one statement with `parameters` (`$1`, `$2`, …), preparing it on first use.
  @discardableResult
  func query(_ sql: String, _ parameters: [any PostgresParameter] = []) throws -> PostgresResult {
    let name = try statementName(sql, count: parameters.count)
    let values = parameters.map(\.postgresValue)
    let lengths = values.map { Int32($0?.count ?? 0) }
    let formats = parameters.map { Int32($0.postgresFormat) }
    // Copies that stay put during the call; nil is SQL NULL.
    let buffers = values.map { value in
      value.map { bytes in
        let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(1, bytes.count))
        _ = buffer.initialize(from: bytes)
        return buffer
      }
    }
    defer { for buffer in buffers { buffer?.deallocate() } }
    let pointers: [UnsafePointer<CChar>?] = buffers.map {
      $0?.baseAddress.map { UnsafePointer($0) }
    }
    let result = lpq_exec_prepared(
      handle, name, Int32(parameters.count), pointers, lengths, formats)
    do {
      try check(result)
    } catch {
      lpq_clear(result)
      throw error
    }
    return PostgresResult(result)
  }

  /// Runs `body` in one transaction; rolls back and rethrows when it throws.
  func transaction<T>(begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
    try execute(begin)
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      if !isBroken { try? execute("ROLLBACK") }
      throw error
    }
  }

  private func statementName(_ sql: String, count: Int) throws -> String {
    if let name = prepared[sql] { return name }
    let name = "s\(prepared.count + 1)"
    let result = lpq_prepare(handle, name, sql, Int32(count))
    defer { lpq_clear(result) }
    try check(result, sql: sql)
    prepared[sql] = name
    return name
  }

  private func check(_ result: OpaquePointer?, sql: String? = nil) throws {
    guard lpq_result_ok(result) == 0 else { return }
    let state = String(cString: lpq_result_sqlstate(result))
    var message = PostgresError.trimmed(String(cString: lpq_result_error(result)))
    // No result (out of memory, or the connection went): the connection says why.
    if message.isEmpty {
      message = PostgresError.trimmed(String(cString: lpq_connection_error(handle)))
    }
    if message.isEmpty { message = "libpq gave no message" }
    throw PostgresError(
      state: state, message: message,
      connectionLost: isBroken || PostgresError.meansConnectionLost(state), sql: sql)
  }
}

/// An error reported by PostgreSQL or libpq, with the statement that caused it (never its values).
public struct PostgresError: Error, CustomStringConvertible, Sendable {
  /// The SQLSTATE (`23505` a unique violation, `08…` connection trouble), or "" when unknown.
  public var state: String
  public var message: String
  /// The connection is gone: the work may be tried again on a new one.
  public var connectionLost: Bool
  public var sql: String?

  init(state: String, message: String, connectionLost: Bool = false, sql: String? = nil) {
    self.state = state
    self.message = message
    self.connectionLost = connectionLost
    self.sql = sql
  }

  /// Two transactions got in each other's way (serialization failure, deadlock): try again.
  public var isTransient: Bool { state == "40001" || state == "40P01" || connectionLost }

  /// The database's disk failed: `disk_full` (53100) or a system error (class 58, `io_error`).
  public var isStorageFailure: Bool { state == "53100" || state.hasPrefix("58") }

  public var description: String {
    var text = "PostgreSQL error\(state.isEmpty ? "" : " " + state): \(message)"
    if let sql { text += " - while preparing `\(sql)`" }
    return text
  }

  /// Connection exceptions (class 08), and the backend ended by an administrator or a shutdown.
  static func meansConnectionLost(_ state: String) -> Bool {
    state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03"
  }

  /// libpq's message on one line.
  static func trimmed(_ message: String) -> String {
    message.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.joined(
      separator: "; ")
  }
}

extension Substring {
  fileprivate func trimmingWhitespace() -> Substring {
    drop { $0 == " " || $0 == "\t" }
  }
}
