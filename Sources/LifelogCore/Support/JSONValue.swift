/// A parsed JSON value, from a small strict parser (RFC 8259) that needs no Foundation.
public enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Parses one JSON value that fills all of `bytes` (surrounding whitespace allowed).
  public static func parse(_ bytes: some Collection<UInt8>) throws(InputError) -> JSONValue {
    let array = Array(bytes)
    return try array.withUnsafeBufferPointer { buffer throws(InputError) -> JSONValue in
      var parser = JSONParser(bytes: buffer)
      let value = try parser.value()
      parser.skipWhitespace()
      guard parser.index == buffer.count else {
        throw parser.failure("unexpected text after the value")
      }
      return value
    }
  }

  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  public var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  public var number: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The value as a whole number, when it is one.
  public var integer: Int64? {
    guard case .number(let value) = self, value.rounded() == value, abs(value) < 9e15 else {
      return nil
    }
    return Int64(value)
  }

  public var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  public var isNull: Bool { self == .null }
}

/// The parser behind ``JSONValue/parse(_:)``: recursive descent over UTF-8 bytes.
struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var depth = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  func failure(_ reason: String) -> InputError {
    InputError("Malformed JSON at byte \(index): \(reason)")
  }

  mutating func skipWhitespace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  mutating func value() throws(InputError) -> JSONValue {
    skipWhitespace()
    guard index < bytes.count else { throw failure("unexpected end") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    default: return .number(try number())
    }
  }

  private mutating func literal(
    _ word: StaticString, _ value: JSONValue
  ) throws(InputError) -> JSONValue {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
    else { throw failure("unknown literal") }
    index += count
    return value
  }

  private mutating func nest() throws(InputError) {
    depth += 1
    if depth > 64 { throw failure("nested too deeply") }
  }

  private mutating func object() throws(InputError) -> JSONValue {
    try nest()
    defer { depth -= 1 }
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw failure("expected a key")
      }
      let key = try string()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw failure("expected ':'")
      }
      index += 1
      members[key] = try value()
      skipWhitespace()
      guard index < bytes.count else { throw failure("unexpected end in an object") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      } else {
        throw failure("expected ',' or '}'")
      }
    }
  }

  private mutating func array() throws(InputError) -> JSONValue {
    try nest()
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      elements.append(try value())
      skipWhitespace()
      guard index < bytes.count else { throw failure("unexpected end in an array") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      } else {
        throw failure("expected ',' or ']'")
      }
    }
  }

  private mutating func string() throws(InputError) -> String {
    index += 1
    let start = index
    // Fast path: no escapes.
    while index < bytes.count, bytes[index] != UInt8(ascii: "\""),
      bytes[index] != UInt8(ascii: "\\")
    {
      guard bytes[index] >= 0x20 else { throw failure("control character in a string") }
      index += 1
    }
    guard index < bytes.count else { throw failure("unterminated string") }
    if bytes[index] == UInt8(ascii: "\"") {
      index += 1
      return try validUTF8(UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]))
    }
    var scalars: [UInt8] = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return try scalars.withUnsafeBufferPointer { buffer throws(InputError) in
          try validUTF8(buffer)
        }
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { throw failure("unterminated escape") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "u"): scalars.append(contentsOf: try unicodeEscape())
        default: throw failure("unknown escape")
        }
      default:
        guard byte >= 0x20 else { throw failure("control character in a string") }
        scalars.append(byte)
      }
    }
    throw failure("unterminated string")
  }

  private mutating func hex4() throws(InputError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw failure("short \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      index += 1
      let digit: UInt32
      switch byte {
      case 0x30...0x39: digit = UInt32(byte - 0x30)
      case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
      default: throw failure("bad hex digit in \\u escape")
      }
      value = value << 4 | digit
    }
    return value
  }

  private mutating func unicodeEscape() throws(InputError) -> [UInt8] {
    var code = try hex4()
    if (0xD800...0xDBFF).contains(code) {
      guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { throw failure("lone surrogate") }
      index += 2
      let low = try hex4()
      guard (0xDC00...0xDFFF).contains(low) else { throw failure("bad surrogate pair") }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
    } else if (0xDC00...0xDFFF).contains(code) {
      throw failure("lone surrogate")
    }
    guard let scalar = Unicode.Scalar(code) else { throw failure("bad code point") }
    return Array(String(Character(scalar)).utf8)
  }

  private func validUTF8(_ buffer: UnsafeBufferPointer<UInt8>) throws(InputError) -> String {
    // Decoding repairs invalid UTF-8; the text is valid exactly when nothing had to be repaired.
    // (Faster here than the generic `String(validating:as:)`.)
    let text = String(decoding: buffer, as: UTF8.self)
    guard text.utf8.count == buffer.count, text.utf8.elementsEqual(buffer) else {
      throw failure("invalid UTF-8")
    }
    return text
  }

  private mutating func number() throws(InputError) -> Double {
    let start = index
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let digitsStart = index
    while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
    guard index > digitsStart else { throw failure("expected a value") }
    if bytes[digitsStart] == 0x30, index - digitsStart > 1 { throw failure("leading zero") }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      let fraction = index
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
      guard index > fraction else { throw failure("expected digits after '.'") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      let exponent = index
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
      guard index > exponent else { throw failure("expected digits in the exponent") }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else { throw failure("number out of range") }
    return value
  }
}
