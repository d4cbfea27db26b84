import Foundation
import LifelogCore
import LifelogExchange
import LifelogTestSupport
import Testing

/// The element-at-a-time JSON reader on real files, with chunks small enough that elements,
/// strings and escapes span them.
@Suite struct JSONElementReaderTests {
  let folder = TemporaryDirectory()

  /// Every element of `text` (or its error) with its line, read in chunks of `chunkSize` bytes.
  func elements(
    _ text: String, member: String? = nil, chunkSize: Int = 7
  ) throws -> [(line: Int, value: JSONValue?)] {
    let path = folder.file("input.json")
    FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    let reader = JSONElementReader(
      ChunkedReader(descriptor: open(path, O_RDONLY), closing: true, chunkSize: chunkSize),
      member: member)
    var result: [(Int, JSONValue?)] = []
    while let (element, line) = try reader.next() { result.append((line, try? element.get())) }
    return result
  }

  @Test func elementsComeOneAtATimeWithTheLineEachStartsOn() throws {
    let text = "[\n{\"a\": \"x,]}\\\"y\"},\n  [1, {\"b\": []}],\n3.5 , \"s\",\nnull\n]\n"
    for chunkSize in [1, 2, 7, 1 << 20] {
      // A byte order mark is looked for in the first chunk (1 MiB in use), so only from 3 bytes.
      let result = try elements((chunkSize >= 3 ? "\u{FEFF}" : "") + text, chunkSize: chunkSize)
      #expect(result.map(\.line) == [2, 3, 4, 4, 5], "chunk size \(chunkSize)")
      #expect(result[0].value == .object(["a": .string("x,]}\"y")]))
      #expect(result[2].value == .number(3.5))
      #expect(result[4].value == .null)
    }
  }

  @Test func theArrayOfOneMemberIsStreamedAndTheOtherMembersAreChecked() throws {
    let text = "{\"tags\": {\"@a\": 1},\n\"entries\": [{\"t\": 1},\n{\"t\": 2}], \"after\": [true]}"
    let result = try elements(text, member: "entries")
    #expect(result.map(\.line) == [2, 3])
    #expect(throws: InputError.self) {
      try elements("{\"tags\": {\"@a\": 1 2}, \"entries\": []}", member: "entries")
    }
    #expect(throws: InputError.self) { try elements("{\"other\": []}", member: "entries") }
  }

  @Test func aMalformedElementIsAnErrorOfItsOwnAndReadingGoesOn() throws {
    let result = try elements("[1, tru,\n{\"a\": 1,}, 4]")
    #expect(result.map(\.line) == [1, 1, 2, 2])
    #expect(result.map { $0.value == nil } == [false, true, true, false])
  }

  @Test(arguments: [
    "", "{}", "[1, 2", "[1,]", "[1 2]", "[1] x", "[\"open", "[[[", "1",
  ])
  func aFileThatIsNotOneArrayIsRefused(_ text: String) throws {
    #expect(throws: InputError.self) { try elements(text) }
  }

  @Test func anElementLongerThanTheLimitIsRefusedWithoutReadingTheRest() throws {
    let long =
      "[\"" + String(repeating: "x", count: JSONElementReader.maximumValueBytes + 10) + "\"]"
    #expect(throws: InputError.self) { try elements(long, chunkSize: 1 << 16) }
  }
}
