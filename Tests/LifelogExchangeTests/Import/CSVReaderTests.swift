import Foundation
import LifelogCore
import LifelogExchange
import LifelogTestSupport
import Testing

/// The CSV reader on real files: quoting, line ends, byte order marks, and records that span
/// chunks.
@Suite struct CSVReaderTests {
  let folder = TemporaryDirectory()

  /// Every record of `text` as its fields, with the line it starts on and any problem.
  func records(
    _ bytes: [UInt8], chunkSize: Int = 1 << 20
  ) throws -> [(line: Int, fields: [String], problem: String?)] {
    let path = folder.file("input.csv")
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    let descriptor = open(path, O_RDONLY)
    let reader = CSVReader(
      ChunkedReader(descriptor: descriptor, closing: true, chunkSize: chunkSize))
    var result: [(Int, [String], String?)] = []
    while try reader.next() {
      result.append(
        (
          reader.line, (0..<reader.fieldCount).map { reader.field($0) ?? "<invalid>" },
          reader.problem
        ))
    }
    return result
  }

  func records(
    _ text: String, chunkSize: Int = 1 << 20
  ) throws -> [(line: Int, fields: [String], problem: String?)] {
    try records(Array(text.utf8), chunkSize: chunkSize)
  }

  /// A record of exactly ``RecordLimit/bytes`` (its line end not counted) is read, one byte more
  /// is refused naming its line, whether the chunks are large or small; blank lines before it
  /// do not count.
  @Test(arguments: [1 << 20, 4096])
  func aRecordIsCappedAtOneMebibyteExactly(chunkSize: Int) throws {
    let header = Array("a,b\n\n".utf8)
    let field = RecordLimit.bytes - 2  // the comma and a one-byte first field
    let fits = header + Array("x,".utf8) + [UInt8](repeating: 0x61, count: field) + [0x0A]
    let read = try records(fits + Array("y,z\n".utf8), chunkSize: chunkSize)
    #expect(read.map(\.line) == [1, 3, 4])
    #expect(read[1].fields[1].utf8.count == field)
    let over = header + Array("x,".utf8) + [UInt8](repeating: 0x61, count: field + 1) + [0x0A]
    #expect(throws: RecordLimit.exceeded(line: 3, what: "the CSV record")) {
      try records(over, chunkSize: chunkSize)
    }
  }

  @Test func quotedFieldsHoldCommasDoubledQuotesAndLineBreaks() throws {
    let result = try records("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\nlast,,\r\n")
    #expect(
      result.map(\.fields) == [
        ["a", "b", "c"], ["x, y", "say \"hi\"", "two\r\nlines"], ["last", "", ""],
      ])
    #expect(
      result.map(\.line) == [1, 2, 4], "a record after a quoted line break starts a line later")
    #expect(result.allSatisfy { $0.problem == nil })
  }

  @Test func lfAndCRLFLineEndsReadAlikeAndBlankLinesAreSkipped() throws {
    let lf = try records("a,b\n1,2\n\n3,4")
    let crlf = try records("a,b\r\n1,2\r\n\r\n3,4\r\n")
    #expect(lf.map(\.fields) == [["a", "b"], ["1", "2"], ["3", "4"]])
    #expect(crlf.map(\.fields) == lf.map(\.fields))
    #expect(lf.map(\.line) == [1, 2, 4])
  }

  @Test func aByteOrderMarkIsSkipped() throws {
    let result = try records([0xEF, 0xBB, 0xBF] + Array("at,activity\n".utf8))
    #expect(result.map(\.fields) == [["at", "activity"]])
  }

  @Test func anUnbalancedQuoteIsReportedOnItsRecord() throws {
    let result = try records("a,b\n1,\"open\n2,3\n")
    #expect(result.count == 2)
    #expect(result[1].line == 2)
    #expect(result[1].problem?.contains("unbalanced quote") == true)
  }

  @Test func strayQuotesAreProblemsButReadingGoesOn() throws {
    let result = try records("a\"b,c\n\"x\"y,z\nok,1\n")
    #expect(result[0].problem?.contains("quote inside an unquoted field") == true)
    #expect(result[1].problem?.contains("after a closing quote") == true)
    #expect(result[2].problem == nil && result[2].fields == ["ok", "1"])
  }

  @Test func recordsSpanningChunksReadWhole() throws {
    let text =
      "id,note\n" + (1...50).map { "\($0),\"note \($0), with \"\"quotes\"\"\nand ü\"\n" }.joined()
    let small = try records(text, chunkSize: 7)
    let large = try records(text)
    #expect(small.map(\.fields) == large.map(\.fields))
    #expect(small.map(\.line) == large.map(\.line))
    #expect(small.count == 51)
    #expect(small[50].fields == ["50", "note 50, with \"quotes\"\nand ü"])
  }

  @Test func invalidUTF8IsNotText() throws {
    let result = try records(Array("a\n".utf8) + [0xFF, 0xFE] + Array("\n".utf8))
    #expect(result[1].fields == ["<invalid>"])
  }
}
