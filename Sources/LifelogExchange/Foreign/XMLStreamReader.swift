import CLifelogXML
import LifelogCore

/// Elements of an XML document one at a time, through libxml2's streaming reader
/// (`xmlReaderForIO`, `xmlTextReaderRead`), which holds only the current element: a several-GB
/// document costs the memory of one chunk of it.
///
/// libxml2 is loaded with dlopen on the first use (Sources/CLifelogXML), so only
/// `lifelog import --from apple-health` loads it. It never fetches anything (no network) and
/// expands no entities into the text it hands out; a document that declares an entity is refused
/// before its first element, so the time spent stays in proportion to the bytes read (an entity
/// of 100 KB named in an attribute of 20,000 elements would otherwise be copied into each).
final class XMLStreamReader {
  enum Event { case start, end }

  /// The bytes of the document: fills the buffer, returns how many it wrote (0 at the end).
  typealias Fill = (UnsafeMutableRawBufferPointer) throws -> Int

  /// What the read callback reaches through its context pointer.
  private final class Input {
    let fill: Fill
    var failure: (any Error)?
    init(_ fill: @escaping Fill) { self.fill = fill }
  }

  private let input: Input
  private let context: Unmanaged<Input>
  private let reader: OpaquePointer
  fileprivate var attributeBuffer = [CChar](repeating: 0, count: 4096)
  private var reportsText = false

  init(fill: @escaping Fill) throws {
    var error = [CChar](repeating: 0, count: 512)
    guard lifelog_xml_load(&error, error.count) == 0 else {
      throw InputError(
        String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    input = Input(fill)
    context = Unmanaged.passRetained(input)
    let read: lifelog_xml_read_fn = { context, buffer, length in
      guard let context, let buffer, length > 0 else { return -1 }
      let input = Unmanaged<Input>.fromOpaque(context).takeUnretainedValue()
      do {
        let made = try input.fill(UnsafeMutableRawBufferPointer(start: buffer, count: Int(length)))
        return Int32(clamping: made)
      } catch {
        input.failure = error
        return -1
      }
    }
    guard let reader = lifelog_xml_open(read, context.toOpaque()) else {
      context.release()
      throw InputError("cannot start libxml2's reader (out of memory)")
    }
    self.reader = reader
  }

  deinit {
    lifelog_xml_close(reader)
    context.release()
  }

  /// The next element's start or end; nil at the end of the document.
  ///
  /// - Throws: what the input threw, or ``InputError`` with libxml2's message and line.
  func next() throws -> Event? {
    switch lifelog_xml_next(reader) {
    case 1: return .start
    case 2: return .end
    case 0: return nil
    case let code: throw stepFailure(code, declaredByNone: "Apple Health exports")
    }
  }

  var name: String { String(cString: lifelog_xml_name(reader)) }
  /// How deep the current element is: the root is 0.
  var depth: Int { Int(lifelog_xml_depth(reader)) }
  var line: Int { Int(lifelog_xml_line(reader)) }

  /// Whether the current element's name is `name`, without making a String of it.
  func isNamed(_ name: StaticString) -> Bool {
    strcmpStatic(lifelog_xml_name(reader), name)
  }

  /// What ``nextNode()`` meets: an element's start or end, a text node, or a document type
  /// declaration (which an xlsx or ods file never has: its entity declarations are refused).
  enum Node: Equatable { case start, end, text, doctype }

  /// Like ``next()``, with text nodes (their text is ``value``) and the document type too.
  func nextNode() throws -> Node? {
    if !reportsText {
      lifelog_xml_report_text(reader)
      reportsText = true
    }
    switch lifelog_xml_next(reader) {
    case 1: return .start
    case 2: return .end
    case 3: return .text
    case 4: return .doctype
    case 0: return nil
    case let code: throw stepFailure(code, declaredByNone: "spreadsheets")
    }
  }

  /// Why a step returned `code` (-1 or -2): an entity declared, which files of this kind
  /// (`declaredByNone`) never do, so the file is refused; what the input threw; or libxml2's message.
  private func stepFailure(_ code: Int32, declaredByNone files: String) -> any Error {
    let message = String(cString: lifelog_xml_error(reader))
    if code == -2 {
      return InputError(
        "the XML declares the entity '\(message)' (<!ENTITY>); \(files) declare none, so the file "
          + "is refused")
    }
    if let failure = input.failure { return failure }
    return InputError("the XML is malformed: \(message)")
  }

  /// The current text node's text.
  var value: String { String(cString: lifelog_xml_value(reader)) }

  /// Copies attribute `name` into ``attributeBuffer``: its length, or -1 when there is none.
  fileprivate func attributeBytes(_ name: UnsafePointer<CChar>) -> Int {
    Int(lifelog_xml_attribute(reader, name, &attributeBuffer, Int32(attributeBuffer.count)))
  }

  /// Attribute `name` of the current element (values longer than 4 KiB are cut to it).
  func attribute(_ name: String) -> String? {
    let length = lifelog_xml_attribute(
      reader, name, &attributeBuffer, Int32(attributeBuffer.count))
    guard length >= 0 else { return nil }
    return String(
      decoding: attributeBuffer.prefix(Int(length)).map { UInt8(bitPattern: $0) },
      as: UTF8.self)
  }
}

extension XMLStreamReader {
  /// Attribute `name` of the current element as UTF-8 bytes, handed to `body`.
  ///
  /// No String is made (values longer than 4 KiB are cut to it); nil when the element has no
  /// such attribute. A sheet's cells read three attributes each, so making Strings of them was
  /// much of what reading a cell cost.
  func withAttribute<T>(_ name: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
    let cName = UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    let length = attributeBytes(cName)
    guard length >= 0 else { return nil }
    return attributeBuffer.withUnsafeBytes { raw in
      body(UnsafeRawBufferPointer(rebasing: raw[..<length]).assumingMemoryBound(to: UInt8.self))
    }
  }
}

/// Whether the C string equals the static string.
private func strcmpStatic(_ text: UnsafePointer<CChar>, _ name: StaticString) -> Bool {
  let count = name.utf8CodeUnitCount
  let start = name.utf8Start
  for offset in 0..<count where UInt8(bitPattern: text[offset]) != start[offset] { return false }
  return text[count] == 0
}
