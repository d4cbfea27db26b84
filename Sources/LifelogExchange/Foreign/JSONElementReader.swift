import LifelogCore

/// Reads the elements of one JSON array one at a time from a ``ChunkedReader``, so a file of any
/// size holds only one chunk and one element.
///
/// ``JSONValue/parse(_:)`` needs the whole value in memory: on a several-GB `timew export` it would
/// hold the file twice over. This reader walks the bytes of the array itself (strings, nesting,
/// commas), hands each element's bytes to that strict parser, and checks what lies around the
/// array: the top level is the array (`timew export`, `watson log --json`, Watson's `frames`), or
/// an object whose member ``member`` is the array (`jrnl --export json`'s `entries`). Every other
/// member is parsed too (and dropped), so malformed JSON anywhere in the file is refused.
public final class JSONElementReader {
  /// The longest element (or other member's value) read: a journal entry of 400 pages fits.
  public static let maximumValueBytes = RecordLimit.bytes

  private let input: ChunkedReader
  private let member: String?
  private var index = 0
  private var started = false
  private var stage = Stage.start
  private var value: [UInt8] = []
  /// The line the reader is on (1 for the first line).
  public private(set) var line = 1

  private enum Stage { case start, firstElement, nextElement, done }

  /// Reads the array at the top level, or (with `member`) the array in that member of the
  /// top-level object.
  public init(_ input: ChunkedReader, member: String? = nil) {
    self.input = input
    self.member = member
    value.reserveCapacity(4096)
  }

  /// The next element and the line it starts on, or nil after the array (and what follows it)
  /// has been read.
  ///
  /// An element that is not valid JSON comes as a failure and reading goes on.
  ///
  /// - Throws: ``InputError`` (with its line) when the file is not an array of that shape, or
  ///   ends inside it; ``InputFileError`` when it cannot be read.
  public func next() throws -> (Result<JSONValue, InputError>, line: Int)? {
    if stage == .start { try open() }
    if stage == .done { return nil }
    try skipWhitespace()
    guard let byte = try peek() else { throw ended("the array") }
    if byte == UInt8(ascii: "]"), stage == .firstElement || stage == .nextElement {
      index += 1
      try close()
      return nil
    }
    if stage == .nextElement {
      guard byte == UInt8(ascii: ",") else { throw located("expected ',' or ']' after an element") }
      index += 1
      try skipWhitespace()
      if try peek() == UInt8(ascii: "]") { throw located("a comma before ']'; remove it") }
    }
    stage = .nextElement
    let start = line
    try captureValue()
    do throws(InputError) {
      return (.success(try JSONValue.parse(value)), start)
    } catch {
      return (.failure(InputError(error.message.replacingByteWithElement)), start)
    }
  }

  // MARK: - Around the array

  private func open() throws {
    try skipWhitespace()
    guard let member else {
      guard try peek() == UInt8(ascii: "[") else {
        throw located("the file is not a JSON array (it should start with '[')")
      }
      index += 1
      stage = .firstElement
      return
    }
    guard try peek() == UInt8(ascii: "{") else {
      throw located("the file is not a JSON object (it should start with '{')")
    }
    index += 1
    var first = true
    while true {
      guard let key = try nextKey(first: first) else {
        throw located("the object has no '\(member)' member")
      }
      first = false
      if key == member {
        try skipWhitespace()
        guard try peek() == UInt8(ascii: "[") else { throw located("'\(member)' is not an array") }
        index += 1
        stage = .firstElement
        return
      }
      try checkedValue()
    }
  }

  /// After the array: the rest of the object (when there is one), then only white space.
  private func close() throws {
    if member != nil {
      while try nextKey(first: false) != nil { try checkedValue() }
    }
    try skipWhitespace()
    guard try peek() == nil else { throw located("text after the end of the JSON value") }
    stage = .done
  }

  /// The next member's key of the top-level object and its ':'; nil at its closing '}'.
  private func nextKey(first: Bool) throws -> String? {
    try skipWhitespace()
    guard let byte = try peek() else { throw ended("the object") }
    if byte == UInt8(ascii: "}") {
      index += 1
      return nil
    }
    if !first {
      guard byte == UInt8(ascii: ",") else { throw located("expected ',' or '}' in the object") }
      index += 1
      try skipWhitespace()
    }
    guard try peek() == UInt8(ascii: "\"") else { throw located("expected a member name") }
    try captureValue()
    guard case .string(let key) = try parsed() else { throw located("expected a member name") }
    try skipWhitespace()
    guard try peek() == UInt8(ascii: ":") else { throw located("expected ':' after '\(key)'") }
    index += 1
    return key
  }

  /// Reads a member's value whole and checks it is valid JSON.
  private func checkedValue() throws {
    try skipWhitespace()
    try captureValue()
    _ = try parsed()
  }

  private func parsed() throws -> JSONValue {
    do throws(InputError) {
      return try JSONValue.parse(value)
    } catch {
      throw located(error.message.replacingByteWithElement)
    }
  }

  // MARK: - Bytes

  /// Copies the bytes of the value that starts here into ``value``: to its balancing bracket or
  /// closing quote, or for a number or literal to the next delimiter.
  ///
  /// The parser checks the rest.
  private func captureValue() throws {
    // The loop works on local copies (moved out and back, not copied), as CSVReader's does: a
    // property of a class would pay an exclusivity check on every byte.
    var value = self.value
    self.value = []
    var index = self.index
    var line = self.line
    defer {
      self.value = value
      self.index = index
      self.line = line
    }
    value.removeAll(keepingCapacity: true)
    var depth = 0
    var inString = false
    var escaped = false
    let start = line
    var chunk = UnsafeBufferPointer(rebasing: input.chunk[0..<input.count])
    while true {
      if index == chunk.count {
        self.index = index
        let more = try refill()
        index = self.index
        chunk = UnsafeBufferPointer(rebasing: input.chunk[0..<input.count])
        guard more else {
          if depth == 0 && !inString && !value.isEmpty { return }  // a number at the very end
          self.line = line
          throw ended("the value that starts on line \(start)")
        }
      }
      let byte = chunk[index]
      if inString {
        index += 1
        value.append(byte)
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          if depth == 0 { return }
        } else if byte == 0x0A {
          line += 1  // refused by the parser; counted so later lines stay right
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""):
          inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if depth == 0 { return }
          depth -= 1
          if depth == 0 {
            index += 1
            value.append(byte)
            return
          }
        case UInt8(ascii: ","):
          if depth == 0 { return }
        case 0x20, 0x09, 0x0D, 0x0A:
          if depth == 0 { return }
          if byte == 0x0A { line += 1 }
        default: break
        }
        index += 1
        value.append(byte)
      }
      if value.count > JSONElementReader.maximumValueBytes {
        throw InputError(
          "line \(start): a JSON value longer than \(JSONElementReader.maximumValueBytes) bytes; "
            + "this is not an export of that tool")
      }
    }
  }

  private func skipWhitespace() throws {
    while let byte = try peek(), [0x20, 0x09, 0x0D, 0x0A].contains(byte) {
      if byte == 0x0A { line += 1 }
      index += 1
    }
  }

  /// The byte at the cursor, or nil at the end of the input.
  private func peek() throws -> UInt8? {
    if index == input.count {
      guard try refill() else { return nil }
    }
    return input.chunk[index]
  }

  private func refill() throws -> Bool {
    index = 0
    guard try input.refill() else { return false }
    if !started {
      started = true
      if input.count >= 3, input.chunk[0] == 0xEF, input.chunk[1] == 0xBB, input.chunk[2] == 0xBF {
        index = 3  // a UTF-8 byte order mark
        if index == input.count { return try refill() }
      }
    }
    return true
  }

  private func located(_ message: String) -> InputError { InputError("line \(line): \(message)") }

  private func ended(_ what: String) -> InputError {
    InputError("line \(line): the file ends inside \(what); is it cut short?")
  }
}

extension String {
  /// The parser counts bytes from the start of the value it was given: say so.
  fileprivate var replacingByteWithElement: String {
    replacingFirst("Malformed JSON at byte", with: "malformed JSON at byte")
      + " (counted in the value)"
  }

  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    guard hasPrefix(target) else { return self }
    return replacement + dropFirst(target.count)
  }
}
