/// The answer to a WebDAV `PROPFIND` (RFC 4918 §13, `207 Multi-Status`): one entry per resource,
/// with the few properties lifelog asks for.
///
/// A small reader of its own rather than libxml2 (whose reader in CLifelogXML gives elements and
/// attributes, not text, and would load a library on every sync): a multistatus body is plain
/// elements and text. Namespace prefixes are dropped (`D:href`, `lp1:getetag` are read by their
/// local names), comments, processing instructions and declarations are skipped, and no entity
/// but the five predefined ones and character references is expanded, so a hostile server cannot
/// make it fetch or grow anything. Nesting is capped; the body itself is capped by the transport.
struct DAVMultistatus {
  struct Entry: Equatable {
    /// The `href` as sent (percent-encoded).
    var href: String
    var isCollection = false
    /// `getetag`, as sent (quotes and all); nil when the server gives none.
    var etag: String?
    /// `getlastmodified`, as seconds since 1970; nil when absent or not an IMF-fixdate.
    var lastModified: Int64?
    /// `getcontentlength`; nil when absent or not a number.
    var length: Int?

    /// The last segment of the href, percent-decoded: a file or folder name.
    var name: String {
      var path = DAVMultistatus.decodedPath(href)
      while path.hasSuffix("/") { path.removeLast() }
      return String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
    }
  }

  struct ParseError: Error, CustomStringConvertible {
    let description: String
  }

  /// The body asked for: just the properties lifelog reads.
  static let request = Array(
    """
    <?xml version="1.0" encoding="utf-8"?>
    <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/><d:getlastmodified/>\
    <d:getcontentlength/></d:prop></d:propfind>

    """.utf8)

  static let maximumDepth = 32

  private static let commentStart = Array("<!--".utf8)
  private static let commentEnd = Array("-->".utf8)
  private static let cdataStart = Array("<![CDATA[".utf8)
  private static let cdataEnd = Array("]]>".utf8)
  private static let tagEnd: [UInt8] = [UInt8(ascii: ">")]

  /// The entries of a multistatus body, the requested collection itself included.
  static func parse(_ bytes: [UInt8]) throws(ParseError) -> [Entry] {
    var entries: [Entry] = []
    var stack: [String] = []
    var text: [UInt8] = []
    var current: Entry?
    // Properties of one propstat, kept only when its status is 200.
    var pending = Entry(href: "")
    var status = ""
    var sawRoot = false
    var index = 0
    let count = bytes.count
    func find(_ needle: [UInt8], from start: Int) -> Int? {
      guard needle.count <= count else { return nil }
      var at = start
      while at + needle.count <= count {
        if bytes[at] == needle[0], bytes[at..<(at + needle.count)].elementsEqual(needle) {
          return at
        }
        at += 1
      }
      return nil
    }
    while index < count {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "<") else {
        text.append(byte)
        index += 1
        continue
      }
      if bytes[index...].starts(with: commentStart) {
        guard let end = find(commentEnd, from: index + 4) else {
          throw ParseError(description: "a comment is not closed")
        }
        index = end + 3
        continue
      }
      if bytes[index...].starts(with: cdataStart) {
        guard let end = find(cdataEnd, from: index + 9) else {
          throw ParseError(description: "a CDATA section is not closed")
        }
        text += bytes[(index + 9)..<end]
        index = end + 3
        continue
      }
      guard let close = find(tagEnd, from: index) else {
        throw ParseError(description: "a tag is not closed")
      }
      let tag = Array(bytes[(index + 1)..<close])
      index = close + 1
      if tag.first == UInt8(ascii: "?") || tag.first == UInt8(ascii: "!") { continue }
      if tag.first == UInt8(ascii: "/") {
        let name = localName(Array(tag.dropFirst()))
        guard stack.last == name else {
          throw ParseError(description: "element '\(name)' closes out of order")
        }
        let value = try decode(text)
        text = []
        stack.removeLast()
        switch name {
        case "href" where stack.last == "response": current?.href = trimmed(value)
        case "getetag": pending.etag = trimmed(value)
        case "getlastmodified":
          pending.lastModified = HTTPResponseParser.httpDate(Array(trimmed(value).utf8))
        case "getcontentlength":
          let digits = trimmed(value)
          if digits.utf8.count <= 18, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            pending.length = Int(digits)
          }
        case "status" where stack.last == "propstat": status = trimmed(value)
        case "propstat":
          // "HTTP/1.1 200 OK": only found properties count.
          if status.split(separator: " ").dropFirst().first == "200", var entry = current {
            entry.isCollection = entry.isCollection || pending.isCollection
            entry.etag = pending.etag ?? entry.etag
            entry.lastModified = pending.lastModified ?? entry.lastModified
            entry.length = pending.length ?? entry.length
            current = entry
          }
        case "response":
          if let entry = current, !entry.href.isEmpty { entries.append(entry) }
          current = nil
        default: break
        }
        continue
      }
      text = []
      let selfClosing = tag.last == UInt8(ascii: "/")
      let name = localName(selfClosing ? Array(tag.dropLast()) : tag)
      if stack.isEmpty {
        guard name == "multistatus", !sawRoot else {
          throw ParseError(description: "the answer is not a WebDAV multistatus")
        }
        sawRoot = true
      }
      if name == "collection", stack.last == "resourcetype" { pending.isCollection = true }
      if selfClosing { continue }
      guard stack.count < maximumDepth else {
        throw ParseError(description: "the answer nests deeper than \(maximumDepth) elements")
      }
      switch name {
      case "response": current = Entry(href: "")
      case "propstat":
        pending = Entry(href: "")
        status = ""
      default: break
      }
      stack.append(name)
    }
    guard sawRoot, stack.isEmpty else {
      throw ParseError(description: "the multistatus answer is cut short")
    }
    return entries
  }

  /// An element's name without its attributes and namespace prefix.
  private static func localName(_ tag: [UInt8]) -> String {
    let name = tag.prefix { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    let local =
      name.lastIndex(of: UInt8(ascii: ":")).map { name[(name.index(after: $0))...] } ?? name
    return String(decoding: local, as: UTF8.self)
  }

  private static func trimmed(_ text: String) -> String {
    String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }

  /// Text with `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and `&#N;`/`&#xN;` replaced.
  private static func decode(_ bytes: [UInt8]) throws(ParseError) -> String {
    guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "&") else {
        out.append(bytes[index])
        index += 1
        continue
      }
      guard let end = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
        throw ParseError(description: "an entity is not closed")
      }
      let entity = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
      index = end + 1
      switch entity {
      case "amp": out.append(UInt8(ascii: "&"))
      case "lt": out.append(UInt8(ascii: "<"))
      case "gt": out.append(UInt8(ascii: ">"))
      case "quot": out.append(UInt8(ascii: "\""))
      case "apos": out.append(UInt8(ascii: "'"))
      default:
        let scalar: UInt32? =
          entity.hasPrefix("#x")
          ? UInt32(entity.dropFirst(2), radix: 16)
          : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
        guard let scalar, let character = Unicode.Scalar(scalar) else {
          throw ParseError(description: "unknown entity '&\(entity);'")
        }
        out += Array(String(Character(character)).utf8)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The path of an href (`http://host/a%20b/` or `/a%20b/`), percent-decoded.
  static func decodedPath(_ href: String) -> String {
    var bytes = Array(href.utf8)
    if !bytes.starts(with: [UInt8(ascii: "/")]),
      let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
      bytes[colon...].starts(with: Array("://".utf8))
    {
      let rest = bytes[(colon + 3)...]
      bytes = rest.firstIndex(of: UInt8(ascii: "/")).map { Array(rest[$0...]) } ?? [0x2F]
    }
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let value = UInt8(
          String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
      {
        out.append(value)
        index += 3
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
