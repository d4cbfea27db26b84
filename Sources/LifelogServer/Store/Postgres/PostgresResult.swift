import CLifelogPQ

/// The rows of one statement, in libpq's binary format: `bigint` as 8 big-endian bytes,
/// `integer` as 4, `boolean` as 1, `text` and `bytea` as their bytes.
final class PostgresResult {
  private let handle: OpaquePointer?

  init(_ handle: OpaquePointer?) { self.handle = handle }
  deinit { lpq_clear(handle) }

  var count: Int { handle.map { Int(lpq_rows($0)) } ?? 0 }

  func isNull(_ row: Int, _ column: Int) -> Bool {
    lpq_is_null(handle, Int32(row), Int32(column)) != 0
  }

  /// A `bigint`, `integer` or `smallint` column (0 when NULL).
  func int64(_ row: Int, _ column: Int) -> Int64 {
    let length = Int(lpq_length(handle, Int32(row), Int32(column)))
    guard let value = lpq_value(handle, Int32(row), Int32(column)), length > 0 else { return 0 }
    var number: Int64 = 0
    for index in 0..<length { number = number << 8 | Int64(UInt8(bitPattern: value[index])) }
    // Extend the sign of a shorter integer.
    let unused = 64 - 8 * length
    return unused > 0 ? (number << unused) >> unused : number
  }

  func int(_ row: Int, _ column: Int) -> Int { Int(int64(row, column)) }

  func bool(_ row: Int, _ column: Int) -> Bool { int64(row, column) != 0 }

  func bytes(_ row: Int, _ column: Int) -> [UInt8] {
    let length = Int(lpq_length(handle, Int32(row), Int32(column)))
    guard let value = lpq_value(handle, Int32(row), Int32(column)), length > 0 else { return [] }
    return value.withMemoryRebound(to: UInt8.self, capacity: length) {
      Array(UnsafeBufferPointer(start: $0, count: length))
    }
  }

  func text(_ row: Int, _ column: Int) -> String {
    String(decoding: bytes(row, column), as: UTF8.self)
  }

  /// Each row, read by `transform`.
  func map<T>(_ transform: (Int) throws -> T) rethrows -> [T] {
    try (0..<count).map(transform)
  }
}

/// A value a statement takes as a parameter: text, except bytes (binary `bytea`).
protocol PostgresParameter {
  /// Its bytes, or nil for SQL NULL.
  var postgresValue: [CChar]? { get }
  /// 0 for text, 1 for binary.
  var postgresFormat: Int { get }
}

extension PostgresParameter {
  var postgresFormat: Int { 0 }
}

extension String: PostgresParameter {
  /// NUL-terminated: libpq reads text parameters as C strings.
  var postgresValue: [CChar]? { utf8.map { CChar(bitPattern: $0) } + [0] }
}

extension Int64: PostgresParameter {
  var postgresValue: [CChar]? { String(self).postgresValue }
}

extension Int: PostgresParameter {
  var postgresValue: [CChar]? { String(self).postgresValue }
}

extension Array: PostgresParameter where Element == UInt8 {
  var postgresValue: [CChar]? { map { CChar(bitPattern: $0) } }
  var postgresFormat: Int { 1 }
}

extension Optional: PostgresParameter where Wrapped: PostgresParameter {
  var postgresValue: [CChar]? { self?.postgresValue }
  var postgresFormat: Int { self?.postgresFormat ?? 0 }
}
