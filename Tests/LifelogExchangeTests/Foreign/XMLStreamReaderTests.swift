import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogExchange

/// ``XMLStreamReader`` over libxml2 on documents handed over in small pieces: elements and
/// attributes come out in order, and a document that declares an entity, is malformed, or whose
/// input fails is refused with an error, never expanded, fetched or trapped on.
@Suite struct XMLStreamReaderTests {
  /// A reader over `text`, handing it out at most `piece` bytes at a time.
  static func reader(_ text: String, piece: Int = 7) throws -> XMLStreamReader {
    let bytes = Array(text.utf8)
    var offset = 0
    return try XMLStreamReader { buffer in
      let count = min(piece, buffer.count, bytes.count - offset)
      guard count > 0 else { return 0 }
      buffer.copyBytes(from: bytes[offset..<(offset + count)])
      offset += count
      return count
    }
  }

  /// Every element start as `name depth attribute`, and each end (of an empty element too) as `/`.
  static func events(_ text: String, attribute: String = "type") throws -> [String] {
    let reader = try reader(text)
    var events: [String] = []
    while let event = try reader.next() {
      switch event {
      case .start:
        events.append("\(reader.name) \(reader.depth) \(reader.attribute(attribute) ?? "-")")
      case .end: events.append("/")
      }
    }
    return events
  }

  @Test func elementsAndAttributesComeOutInOrderAcrossPieces() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_US">
       <Record type="HKQuantityTypeIdentifierStepCount" value="12"/>
       <Workout type="Running &amp; more"><WorkoutEvent type="pause"/></Workout>
      </HealthData>
      """
    let events = try Self.events(text)
    #expect(
      events == [
        "HealthData 0 -", "Record 1 HKQuantityTypeIdentifierStepCount", "/",
        "Workout 1 Running & more", "WorkoutEvent 2 pause", "/", "/", "/",
      ], "\(events)")
  }

  @Test func isNamedMatchesTheCurrentElementOnly() throws {
    let reader = try Self.reader("<a><Record/></a>")
    #expect(try reader.next() == .start)
    #expect(reader.isNamed("a") && !reader.isNamed("Record"))
    #expect(try reader.next() == .start)
    #expect(reader.isNamed("Record") && !reader.isNamed("Recor"))
  }

  @Test(arguments: [
    #"<!DOCTYPE a [<!ENTITY big "xxxxxxxxxx">]><a b="&big;"/>"#,
    #"<!DOCTYPE a [<!ENTITY % p "x">]><a/>"#,
    #"<!DOCTYPE a [<!ENTITY ext SYSTEM "http://127.0.0.1:9/x">]><a>&ext;</a>"#,
  ])
  func aDocumentDeclaringAnEntityIsRefusedBeforeItsFirstElement(_ text: String) throws {
    let reader = try Self.reader(text)
    #expect {
      _ = try reader.next()
    } throws: { error in
      (error as? InputError)?.description.contains("declares the entity") == true
    }
  }

  @Test(arguments: ["<a><b></a>", "<a", "<a x=1/>", "no xml at all", "<a/><b/>"])
  func aMalformedDocumentIsRefused(_ text: String) throws {
    #expect(throws: InputError.self) { _ = try Self.events(text) }
  }

  struct InputFailed: Error {}

  @Test func anErrorOfTheInputIsTheErrorThrown() throws {
    let start = Array("<a><b/>".utf8)
    var offset = 0
    let reader = try XMLStreamReader { buffer in
      guard offset < start.count else { throw InputFailed() }
      let count = min(buffer.count, start.count - offset)
      buffer.copyBytes(from: start[offset..<(offset + count)])
      offset += count
      return count
    }
    #expect(throws: InputFailed.self) {
      while try reader.next() != nil {}
    }
  }

  @Test func aLongAttributeIsCutTo4KiB() throws {
    let long = String(repeating: "x", count: 10_000)
    let reader = try Self.reader("<a type=\"\(long)\"/>", piece: 4096)
    #expect(try reader.next() == .start)
    #expect(reader.attribute("type")?.utf8.count ?? 0 <= 4096)
    #expect(reader.attribute("missing") == nil)
  }
}
