import LifelogCore

/// Reads RFC 4180 CSV records one at a time from a ``ChunkedReader``, never holding more than one
/// record and one chunk.
///
/// Quoted fields may hold commas, doubled quotes and line breaks. Lines may end in CRLF or LF; a
/// UTF-8 byte order mark at the start is skipped; blank lines are skipped. A record that breaks
/// the quoting rules is still returned (so the next one can be read) with ``problem`` set. A
/// record longer than ``RecordLimit/bytes`` (a quote never closed, say) stops the reading.
public final class CSVReader {
  private let input: ChunkedReader
  private var index = 0
  private var startedInput = false
  /// The unescaped bytes of every field of the current record, one after another.
  private var bytes: [UInt8] = []
  /// Where each field of the current record ends in ``bytes``.
  private var ends: [Int] = []
  private var nextLine = 1
  /// The line the current record starts on (1 for the first line of the input).
  public private(set) var line = 0
  /// What is wrong with the current record's quoting, if anything.
  public private(set) var problem: String?

  public init(_ input: ChunkedReader) {
    self.input = input
    bytes.reserveCapacity(4096)
    ends.reserveCapacity(16)
  }

  /// The number of fields in the current record.
  public var fieldCount: Int { ends.count }

  /// The field at `index` as text, or nil when it is not valid UTF-8.
  public func field(_ index: Int) -> String? {
    let start = index == 0 ? 0 : ends[index - 1]
    return String(validating: bytes[start..<ends[index]], as: UTF8.self)
  }

  /// Whether the field at `index` is empty.
  public func fieldIsEmpty(_ index: Int) -> Bool {
    ends[index] == (index == 0 ? 0 : ends[index - 1])
  }

  /// Moves to the next record; returns false at the end of the input.
  ///
  /// - Throws: ``InputFileError`` when the input cannot be read; ``InputError`` when the record
  ///   is longer than ``RecordLimit/bytes``.
  public func next() throws -> Bool {
    // The loop works on local copies (moved out and back, not copied): a property of a class
    // would pay an exclusivity check on every byte.
    var bytes = self.bytes
    var ends = self.ends
    self.bytes = []
    self.ends = []
    defer {
      self.bytes = bytes
      self.ends = ends
    }
    bytes.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    problem = nil
    line = nextLine
    var quoted = false  // inside a quoted field
    var quoteSeen = false  // a quote inside a quoted field: the closing one, or the first of two
    var afterClosingQuote = false
    var sawQuote = false  // the record has a quoted field (so an empty line is not blank)
    let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n")
    var index = self.index
    var chunk = UnsafeBufferPointer(rebasing: input.chunk[0..<input.count])
    defer { self.index = index }
    // The record's raw length so far is `before + index`: `before` counts the bytes of the
    // chunks it has already left (less where it started).
    var before = -index
    while true {
      if index == chunk.count {
        before += chunk.count
        guard before <= RecordLimit.bytes else {
          throw RecordLimit.exceeded(line: line, what: "the CSV record")
        }
        let more = try refill()
        index = self.index
        before -= index
        chunk = UnsafeBufferPointer(rebasing: input.chunk[0..<input.count])
        guard more else {
          if quoted && !quoteSeen {
            problem = "a quoted field is never closed (an unbalanced quote); close it with '\"'"
          }
          if bytes.isEmpty && ends.isEmpty && !sawQuote { return false }
          ends.append(bytes.count)
          return true
        }
      }
      let byte = chunk[index]
      index += 1
      if quoted {
        if quoteSeen {
          quoteSeen = false
          if byte == quote {
            bytes.append(quote)
            continue
          }
          quoted = false
          afterClosingQuote = true
        } else {
          if byte == quote {
            quoteSeen = true
          } else {
            if byte == newline { nextLine += 1 }
            bytes.append(byte)
          }
          continue
        }
      }
      switch byte {
      case comma:
        ends.append(bytes.count)
        afterClosingQuote = false
      case newline:
        nextLine += 1
        if bytes.isEmpty && ends.isEmpty && !sawQuote {
          line = nextLine  // a blank line: skip it
          before = -index
          continue
        }
        guard before + index - 1 <= RecordLimit.bytes else {  // the line feed not counted
          throw RecordLimit.exceeded(line: line, what: "the CSV record")
        }
        ends.append(bytes.count)
        return true
      case UInt8(ascii: "\r"):
        continue  // CRLF line ends; a CR outside quotes is never data
      case quote:
        sawQuote = true
        if bytes.count == (ends.last ?? 0) && !afterClosingQuote {
          quoted = true
        } else {
          problem =
            problem
            ?? "a quote inside an unquoted field; quote the whole field and double the quote (\"a \"\"b\"\"\")"
          bytes.append(byte)
        }
      default:
        if afterClosingQuote {
          problem = problem ?? "text after a closing quote; put a comma after the quoted field"
        }
        bytes.append(byte)
      }
    }
  }

  private func refill() throws(InputFileError) -> Bool {
    index = 0  // at the end too: the input then holds no bytes, so nothing stale is read again
    guard try input.refill() else { return false }
    if !startedInput {
      startedInput = true
      if input.count >= 3, input.chunk[0] == 0xEF, input.chunk[1] == 0xBB, input.chunk[2] == 0xBF {
        index = 3  // the UTF-8 byte order mark some spreadsheets write
        if index == input.count { return try refill() }
      }
    }
    return true
  }
}
