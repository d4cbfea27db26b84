import CSQLite

/// The one argument of a function defined with ``Database/defineFunction(_:_:)``, as SQLite holds
/// it while the function runs: its type and, for text and blobs, its bytes (valid only then).
public struct FunctionArgument {
  public enum Kind: Sendable { case null, integer, real, text, blob }
  public let kind: Kind
  /// The UTF-8 of a text, the bytes of a blob; empty for the other kinds.
  public let bytes: UnsafeRawBufferPointer
}

/// What a function defined with ``Database/defineFunction(_:_:)`` returns for one call.
public enum FunctionResult {
  /// The argument itself, unchanged (no copy).
  case argument
  /// The first `count` bytes of the scratch buffer, as UTF-8 text.
  case text(count: Int)
  /// The first `count` bytes of the scratch buffer, as a blob.
  case blob(count: Int)
}

extension Database {
  /// Defines a deterministic SQL function of one argument on this connection, written in Swift.
  ///
  /// Why in Swift: SQLite 3.40 has no `unhex()`, and the store keeps entry ids as 16-byte blobs
  /// while every statement that reads or writes them speaks their text form; a function lets SQL
  /// convert in place (`WHERE id = lifelog_id_key(?)`, a whole migration in one `INSERT … SELECT`).
  /// It is marked innocuous: it reads nothing but its argument, so a schema may not smuggle in a
  /// call with side effects through it.
  ///
  /// `body` writes its result into a scratch buffer of ``functionScratchBytes`` bytes that lives
  /// as long as the function (SQLite copies it out): a call allocates nothing, which matters when
  /// it runs once per row of a 100,000-row insert.
  public func defineFunction(
    _ name: String,
    _ body: @escaping (FunctionArgument, UnsafeMutableRawBufferPointer) -> FunctionResult
  ) throws(SQLiteError) {
    let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
    let code = sqlite3_create_function_v2(
      handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, box,
      { context, count, values in
        guard let context, count == 1, let value = values?[0] else { return }
        let function = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context))
          .takeUnretainedValue()
        function.call(context, value)
      }, nil, nil,
      { box in if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() } })
    // On failure SQLite has already called the destructor, which released the box.
    guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
  }
}

/// The most a function defined with ``Database/defineFunction(_:_:)`` can return.
public let functionScratchBytes = 64

/// The Swift closure behind one SQL function, kept alive by SQLite until the connection closes.
private final class FunctionBox {
  let body: (FunctionArgument, UnsafeMutableRawBufferPointer) -> FunctionResult
  let scratch = UnsafeMutableRawBufferPointer.allocate(
    byteCount: functionScratchBytes, alignment: 8)

  init(_ body: @escaping (FunctionArgument, UnsafeMutableRawBufferPointer) -> FunctionResult) {
    self.body = body
  }

  deinit { scratch.deallocate() }

  func call(_ context: OpaquePointer, _ value: OpaquePointer) {
    let kind: FunctionArgument.Kind
    var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: kind = .integer
    case SQLITE_FLOAT: kind = .real
    case SQLITE_TEXT:
      kind = .text
      let start = UnsafeRawPointer(sqlite3_value_text(value))
      bytes = UnsafeRawBufferPointer(start: start, count: Int(sqlite3_value_bytes(value)))
    case SQLITE_BLOB:
      kind = .blob
      bytes = UnsafeRawBufferPointer(
        start: sqlite3_value_blob(value), count: Int(sqlite3_value_bytes(value)))
    default: kind = .null
    }
    switch body(FunctionArgument(kind: kind, bytes: bytes), scratch) {
    case .argument: sqlite3_result_value(context, value)
    case .text(let count):
      sqlite3_result_text(
        context, scratch.baseAddress?.assumingMemoryBound(to: CChar.self),
        Int32(min(max(0, count), functionScratchBytes)), transientDestructor)
    case .blob(let count):
      sqlite3_result_blob(
        context, scratch.baseAddress, Int32(min(max(0, count), functionScratchBytes)),
        transientDestructor)
    }
  }
}
