import CSQLite

/// SQLite's destructor marker telling it to copy text and blobs before `bind` returns.
let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A Swift value that can be bound to a statement parameter and read back from a column.
public protocol SQLiteBindable {
  /// Binds the value to the 1-based parameter `index` of `statement`.
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32
  /// Reads the value from the 0-based column `index` of the current row.
  static func read(from statement: OpaquePointer, at index: Int32) -> Self
}

extension Int64: SQLiteBindable {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    sqlite3_bind_int64(statement, index, self)
  }
  public static func read(from statement: OpaquePointer, at index: Int32) -> Int64 {
    sqlite3_column_int64(statement, index)
  }
}

extension Int: SQLiteBindable {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    sqlite3_bind_int64(statement, index, Int64(self))
  }
  public static func read(from statement: OpaquePointer, at index: Int32) -> Int {
    Int(sqlite3_column_int64(statement, index))
  }
}

extension Bool: SQLiteBindable {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    sqlite3_bind_int64(statement, index, self ? 1 : 0)
  }
  public static func read(from statement: OpaquePointer, at index: Int32) -> Bool {
    sqlite3_column_int64(statement, index) != 0
  }
}

extension Double: SQLiteBindable {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    sqlite3_bind_double(statement, index, self)
  }
  public static func read(from statement: OpaquePointer, at index: Int32) -> Double {
    sqlite3_column_double(statement, index)
  }
}

extension String: SQLiteBindable {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    var copy = self
    return copy.withUTF8 { bytes in
      sqlite3_bind_text(
        statement, index, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self),
        Int32(bytes.count), transientDestructor)
    }
  }
  public static func read(from statement: OpaquePointer, at index: Int32) -> String {
    guard let text = sqlite3_column_text(statement, index) else { return "" }
    let count = Int(sqlite3_column_bytes(statement, index))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }
}

extension [UInt8]: SQLiteBindable {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    withUnsafeBytes { bytes in
      sqlite3_bind_blob(
        statement, index, bytes.baseAddress, Int32(bytes.count), transientDestructor)
    }
  }
  public static func read(from statement: OpaquePointer, at index: Int32) -> [UInt8] {
    let count = Int(sqlite3_column_bytes(statement, index))
    guard count > 0, let blob = sqlite3_column_blob(statement, index) else { return [] }
    return Array(UnsafeRawBufferPointer(start: blob, count: count))
  }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    switch self {
    case .some(let value): value.bind(to: statement, at: index)
    case .none: sqlite3_bind_null(statement, index)
    }
  }
  public static func read(from statement: OpaquePointer, at index: Int32) -> Wrapped? {
    sqlite3_column_type(statement, index) == SQLITE_NULL
      ? nil : Wrapped.read(from: statement, at: index)
  }
}
