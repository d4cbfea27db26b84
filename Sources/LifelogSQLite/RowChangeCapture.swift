import CSQLite

/// One column value exactly as SQLite held it (`sqlite3_value_dup`), to bind back unchanged.
public final class SQLiteValueCopy: SQLiteBindable {
  let value: OpaquePointer?

  init(_ value: OpaquePointer?) { self.value = sqlite3_value_dup(value) }
  deinit { sqlite3_value_free(value) }

  /// The value as text, nil when it is NULL.
  public var text: String? {
    guard let value, sqlite3_value_type(value) != SQLITE_NULL else { return nil }
    return exactText(of: value)
  }

  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    sqlite3_bind_value(statement, index, value)
  }
  public static func read(from statement: OpaquePointer, at index: Int32) -> Self {
    Self(sqlite3_column_value(statement, index))
  }
}

/// The rows a stretch of writes changes, seen by SQLite's pre-update hook on this connection.
///
/// Why not temporary triggers: creating two temporary tables and six triggers on every write
/// command cost about 0.4 ms of CPU (parsing and storing them in `sqlite_temp_master`), a tenth
/// of an `add`. The hook costs nothing until a row changes. Only the first change of each row in
/// a stretch is kept, with the row's columns as they were before it (none for an insert).
public final class RowChangeCapture {
  /// One changed row: its table, key (column 0), and its columns before the change, empty when
  /// the change inserted it.
  public struct Change {
    public let table: String
    public let key: Key
    public let before: [SQLiteValueCopy]
  }

  /// A row's key as stored: text, or the bytes of a blob (the log keeps entry ids as 16 bytes).
  public enum Key: Hashable, Sendable {
    case text(String)
    case blob([UInt8])
  }

  /// Whether changes are being captured now.
  public private(set) var isRecording = false
  /// The changes captured since ``start()``, first change of each row, in the order made.
  public private(set) var changes: [Change] = []
  /// Tables whose inserts are not captured in this stretch (a bulk import counts them otherwise).
  public var ignoredInserts: Set<String> = []
  /// The rows already captured in this stretch, each named by ``seenName(table:key:)``.
  ///
  /// Not a set of a type of its own: the first use of one made the Swift runtime scan every
  /// protocol conformance in the binary for its `Hashable` (about 130,000 instructions on every
  /// `add`), while `String`'s is looked up once per process anyway.
  private var seen: Set<String> = []
  /// The watched tables, with their names as C strings: the hook runs for every row any
  /// statement writes (an import's million), so it matches names without making a `String`.
  private let tables: [(name: String, cName: [CChar])]
  private let database: Database

  /// Starts watching `tables` of the main database of `database` (recording only between
  /// ``start()`` and ``stop()``).
  public init(database: Database, tables: Set<String>) {
    self.database = database
    self.tables = tables.sorted().map { ($0, Array($0.utf8CString)) }
    sqlite3_preupdate_hook(
      database.handle,
      { context, db, operation, schema, table, _, _ in
        guard let context, let db, let schema, let table else { return }
        Unmanaged<RowChangeCapture>.fromOpaque(context).takeUnretainedValue().note(
          db, operation: operation, schema: schema, table: table)
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit { sqlite3_preupdate_hook(database.handle, nil, nil) }

  /// Forgets what was captured and captures from now on.
  public func start() {
    changes = []
    seen = []
    ignoredInserts = []
    isRecording = true
  }

  /// Stops capturing; ``changes`` stays readable.
  public func stop() { isRecording = false }

  private func note(
    _ db: OpaquePointer, operation: Int32, schema: UnsafePointer<CChar>,
    table tableName: UnsafePointer<CChar>
  ) {
    guard isRecording, operation == SQLITE_INSERT || operation == SQLITE_UPDATE,
      sqlite3_stricmp(schema, "main") == 0,
      let table = tables.first(where: { sqlite3_stricmp($0.cName, tableName) == 0 })?.name
    else { return }
    let inserted = operation == SQLITE_INSERT
    if inserted, ignoredInserts.contains(table) { return }
    var keyValue: OpaquePointer?
    let code =
      inserted
      ? sqlite3_preupdate_new(db, 0, &keyValue) : sqlite3_preupdate_old(db, 0, &keyValue)
    guard code == SQLITE_OK, let keyValue else { return }
    let key: Key
    if sqlite3_value_type(keyValue) == SQLITE_BLOB {
      let count = Int(sqlite3_value_bytes(keyValue))
      guard let bytes = sqlite3_value_blob(keyValue) else { return }
      key = .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    } else {
      guard let text = exactText(of: keyValue) else { return }
      key = .text(text)
    }
    guard seen.insert(Self.seenName(table: table, key: key)).inserted else { return }
    var before: [SQLiteValueCopy] = []
    if !inserted {
      for column in 0..<sqlite3_preupdate_count(db) {
        var value: OpaquePointer?
        _ = sqlite3_preupdate_old(db, column, &value)
        before.append(SQLiteValueCopy(value))
      }
    }
    changes.append(Change(table: table, key: key, before: before))
  }

  /// One string per row, different for different rows: the table's name, a NUL (which no
  /// watched table's name holds), then `t` and the key's text, or `b` and the key's bytes as
  /// the characters U+0000 to U+00FF.
  private static func seenName(table: String, key: Key) -> String {
    var name = table
    switch key {
    case .text(let text):
      name += "\u{0}t"
      name += text
    case .blob(let bytes):
      name += "\u{0}b"
      for byte in bytes { name.unicodeScalars.append(Unicode.Scalar(byte)) }
    }
    return name
  }
}

/// The whole text of `value`, by its byte count: a key from another device may hold a NUL, and
/// reading up to the first one would name another row (or none), so undo would lose the change.
func exactText(of value: OpaquePointer) -> String? {
  guard let text = sqlite3_value_text(value) else { return nil }
  let count = Int(sqlite3_value_bytes(value))
  return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
}
