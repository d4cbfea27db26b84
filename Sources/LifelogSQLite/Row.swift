import CSQLite

/// The current row of a running ``Statement``.
///
/// A row is a view: it is valid only inside the closure that received it.
public struct Row {
  @usableFromInline let statement: Statement

  /// The value of the 0-based column `index`.
  ///
  /// Inlinable, so a caller's reads are specialized for the types it reads: the generic form
  /// made the Swift runtime build `Optional` metadata on each call.
  @inlinable
  public subscript<T: SQLiteBindable>(_ index: Int32) -> T {
    T.read(from: statement.handle, at: index)
  }

  /// Whether the 0-based column `index` holds NULL.
  public func isNull(_ index: Int32) -> Bool {
    sqlite3_column_type(statement.handle, index) == SQLITE_NULL
  }

  /// Calls `body` with the raw UTF-8 bytes of a text column, without copying them into a String.
  public func withUTF8<T>(
    _ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T
  ) rethrows
    -> T
  {
    let count = Int(sqlite3_column_bytes(statement.handle, index))
    let bytes = sqlite3_column_text(statement.handle, index)
    return try body(UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
  }
}
