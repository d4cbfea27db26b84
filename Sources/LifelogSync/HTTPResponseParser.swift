import LifelogCore

/// Reads one HTTP/1.1 answer from the bytes a server sends, within limits, and never traps.
///
/// Everything here comes from the server, which may lie: a `Content-Length` that is negative,
/// huge or given twice, chunk sizes that overflow or are cut off, endless header lines, a
/// `Retry-After` of 10^16 seconds. Each of those is a thrown ``HTTPResponseError``, and the memory
/// taken is at most the head limit plus ``Limits/maxBodyBytes`` (a body is never reserved from
/// what the server announces, only grown as its bytes arrive).
///
/// Feed the bytes as they arrive with ``consume(_:)`` (``isComplete`` says when the answer is
/// whole, so a reader need not wait for the server to close), then call ``finish()``; or hand a
/// whole answer to ``parse(_:limits:)``. Both are pure: no sockets, no clock, so a fuzzer can
/// drive them.
public struct HTTPResponseParser: Sendable {
  /// How much of an answer is accepted.
  public struct Limits: Sendable, Equatable {
    /// The body, after chunks are decoded.
    public var maxBodyBytes: Int
    /// Status line and headers together (interim `1xx` heads and chunked trailers count too).
    public var maxHeadBytes: Int
    /// One line of the head, or one chunk-size line.
    public var maxLineBytes: Int
    public var maxHeaderCount: Int

    /// 64 KiB of head in lines of 8 KiB and 100 headers: several times what `lifelog serve`,
    /// nginx or a CDN send, and far below what would cost memory.
    public init(
      maxBodyBytes: Int, maxHeadBytes: Int = 64 << 10, maxLineBytes: Int = 8 << 10,
      maxHeaderCount: Int = 100
    ) {
      self.maxBodyBytes = max(0, maxBodyBytes)
      self.maxHeadBytes = max(0, maxHeadBytes)
      self.maxLineBytes = max(0, maxLineBytes)
      self.maxHeaderCount = max(0, maxHeaderCount)
    }
  }

  /// A whole answer.
  public struct Response: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    /// `Retry-After`, when the server sent one that reads.
    public var retryAfter: RetryAfter?
    /// `Location`, of a redirect.
    ///
    /// Printable ASCII only, at most 200 characters, as this parser reads it; whole as libcurl
    /// gives it. Shown only through ``SecretScrubber/shown(_:limit:printable:)``.
    public var location: String?
    /// `Date`, as seconds since 1970, when it reads: the server's clock (the WebDAV remote judges
    /// by it whether a folder's modification time is old enough to trust).
    public var date: Int64?

    public init(
      status: Int, body: [UInt8], retryAfter: RetryAfter? = nil, location: String? = nil,
      date: Int64? = nil
    ) {
      self.status = status
      self.body = body
      self.retryAfter = retryAfter
      self.location = location
      self.date = date
    }
  }

  public let limits: Limits

  private enum State: Sendable {
    case head, fixed(remaining: Int), untilClose, chunkSize, chunkData(remaining: Int), chunkEnd,
      trailers, done
  }

  private var state = State.head
  private var line: [UInt8] = []
  private var headBytes = 0
  private var headerCount = 0
  private var received = false
  private var status: Int?
  private var contentLength: Int?
  private var chunked = false
  private var retryAfter: RetryAfter?
  private var location: String?
  private var date: Int64?
  private var body: [UInt8] = []

  public init(limits: Limits) {
    self.limits = limits
  }

  /// Whether a whole answer has been read (bytes after it are ignored).
  public var isComplete: Bool {
    if case .done = state { return true }
    return false
  }

  /// A whole answer, as received up to the server closing the connection.
  public static func parse(_ bytes: [UInt8], limits: Limits) throws(HTTPResponseError) -> Response {
    var parser = HTTPResponseParser(limits: limits)
    try parser.consume(bytes[...])
    return try parser.finish()
  }

  /// Takes the next bytes of the answer.
  public mutating func consume(_ bytes: ArraySlice<UInt8>) throws(HTTPResponseError) {
    if !bytes.isEmpty { received = true }
    var index = bytes.startIndex
    while index < bytes.endIndex {
      switch state {
      case .head, .chunkSize, .chunkEnd, .trailers:
        let newline = bytes[index...].firstIndex(of: 0x0A)
        let end = newline ?? bytes.endIndex
        guard line.count + (end - index) <= limits.maxLineBytes else {
          throw HTTPResponseError(
            .malformed, "a line of the answer is longer than \(limits.maxLineBytes) bytes")
        }
        line.append(contentsOf: bytes[index..<end])
        guard let newline else { return }
        index = newline + 1
        if line.last == 0x0D { line.removeLast() }
        try takeLine()
        line.removeAll(keepingCapacity: true)
      case .fixed(let remaining), .chunkData(let remaining):
        let take = min(remaining, bytes.endIndex - index)
        appendToBody(bytes[index..<(index + take)])
        index += take
        if case .fixed = state {
          state = take == remaining ? .done : .fixed(remaining: remaining - take)
        } else {
          state = take == remaining ? .chunkEnd : .chunkData(remaining: remaining - take)
        }
      case .untilClose:
        guard bytes.endIndex - index <= limits.maxBodyBytes - body.count else { throw tooLarge() }
        appendToBody(bytes[index...])
        return
      case .done:
        return
      }
    }
  }

  /// Grows the body by doubling, but never reserves past the limit: the memory an answer takes is
  /// at most the limit (twice it for the moment of a copy).
  private mutating func appendToBody(_ bytes: ArraySlice<UInt8>) {
    let needed = body.count + bytes.count
    if needed > body.capacity {
      body.reserveCapacity(
        min(max(needed, body.capacity * 2, 1 << 12), max(needed, limits.maxBodyBytes)))
    }
    body.append(contentsOf: bytes)
  }

  /// The answer, once the server has closed the connection.
  public mutating func finish() throws(HTTPResponseError) -> Response {
    switch state {
    case .done, .untilClose:
      return Response(
        status: status ?? 0, body: body, retryAfter: retryAfter, location: location, date: date)
    case .head where !received:
      throw HTTPResponseError(.cutShort, "the server closed the connection without answering")
    case .head:
      throw HTTPResponseError(.cutShort, "the answer was cut off in its headers")
    case .fixed(let remaining):
      throw HTTPResponseError(
        .cutShort, "the answer was cut off \(remaining) bytes before the end it announced")
    case .chunkSize, .chunkData, .chunkEnd, .trailers:
      throw HTTPResponseError(.cutShort, "the answer was cut off between its chunks")
    }
  }

  // MARK: - Lines

  private mutating func takeLine() throws(HTTPResponseError) {
    switch state {
    case .head:
      try countHeadBytes()
      if status == nil {
        status = try HTTPResponseParser.status(line)
      } else if line.isEmpty {
        try endHead()
      } else {
        try takeHeader()
      }
    case .chunkSize:
      let size = try chunkSize(line)
      state = size == 0 ? .trailers : .chunkData(remaining: size)
    case .chunkEnd:
      guard line.isEmpty else {
        throw HTTPResponseError(.malformed, "a chunk holds more bytes than its size says")
      }
      state = .chunkSize
    case .trailers:
      try countHeadBytes()
      if line.isEmpty { state = .done }
    default:
      break
    }
  }

  private mutating func countHeadBytes() throws(HTTPResponseError) {
    headBytes += line.count + 2
    guard headBytes <= limits.maxHeadBytes else {
      throw HTTPResponseError(
        .malformed, "the headers of the answer are longer than \(limits.maxHeadBytes) bytes")
    }
  }

  /// `HTTP/1.1 200 OK`: the status, 100 through 599.
  private static func status(_ line: [UInt8]) throws(HTTPResponseError) -> Int {
    let prefix = Array("HTTP/1.".utf8)
    guard line.count >= 12, line.starts(with: prefix), (0x30...0x39).contains(line[7]),
      line[8] == 0x20,
      line[9...11].allSatisfy({ (0x30...0x39).contains($0) }), line.count == 12 || line[12] == 0x20
    else {
      throw HTTPResponseError(.malformed, "the answer does not start with an HTTP/1.x status line")
    }
    let status = line[9...11].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    guard (100...599).contains(status) else {
      throw HTTPResponseError(.malformed, "the answer's status \(status) is not an HTTP status")
    }
    return status
  }

  private mutating func takeHeader() throws(HTTPResponseError) {
    headerCount += 1
    guard headerCount <= limits.maxHeaderCount else {
      throw HTTPResponseError(
        .malformed, "the answer has more than \(limits.maxHeaderCount) headers")
    }
    guard let colon = line.firstIndex(of: 0x3A), colon > 0,
      line[..<colon].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
    else { throw HTTPResponseError(.malformed, "a header line of the answer is not 'Name: value'") }
    let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
    let value = HTTPResponseParser.trimmed(line[(colon + 1)...])
    switch name {
    case "content-length":
      let length = try contentLength(value)
      if let contentLength, contentLength != length {
        throw HTTPResponseError(.malformed, "the answer gives two different Content-Length headers")
      }
      contentLength = length
    case "transfer-encoding":
      let codings = String(decoding: value, as: UTF8.self).lowercased().split(separator: ",")
        .map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
      guard codings == ["chunked"] else {
        throw HTTPResponseError(
          .malformed, "the answer uses a transfer coding lifelog does not read")
      }
      chunked = true
    case "retry-after":
      retryAfter = HTTPResponseParser.retryAfter(String(decoding: value, as: UTF8.self))
    case "date":
      date = HTTPResponseParser.httpDate(Array(value))
    case "location":
      location = String(
        decoding: value.prefix(200).filter { (0x21...0x7E).contains($0) }, as: UTF8.self)
    default:
      break
    }
  }

  private mutating func endHead() throws(HTTPResponseError) {
    guard let code = status else { return }
    if (100...199).contains(code) {
      // An interim answer (100 Continue, 103 Early Hints): the real one follows.
      guard code != 101 else {
        throw HTTPResponseError(.malformed, "the server switched protocols unasked")
      }
      status = nil
      contentLength = nil
      chunked = false
      headerCount = 0
      return
    }
    if code == 204 || code == 304 {
      state = .done
    } else if chunked {
      state = .chunkSize
    } else if let contentLength {
      state = contentLength == 0 ? .done : .fixed(remaining: contentLength)
    } else {
      state = .untilClose
    }
  }

  /// Decimal digits only (no sign, no spaces inside), at most the body limit.
  private func contentLength(_ value: ArraySlice<UInt8>) throws(HTTPResponseError) -> Int {
    guard !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) else {
      throw HTTPResponseError(.malformed, "the answer's Content-Length is not a number of bytes")
    }
    var length = 0
    for digit in value {
      let (times, overflow) = length.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times.addingReportingOverflow(Int(digit - 0x30))
      guard !overflow, !carry, sum <= limits.maxBodyBytes else { throw tooLarge() }
      length = sum
    }
    return length
  }

  /// Hex digits, then optional `;extensions`; at most what the body limit still allows.
  private func chunkSize(_ line: [UInt8]) throws(HTTPResponseError) -> Int {
    let digits = HTTPResponseParser.trimmed(line.prefix { $0 != 0x3B })
    guard !digits.isEmpty else {
      throw HTTPResponseError(.malformed, "a chunk of the answer has no size")
    }
    var size = 0
    for digit in digits {
      let value: Int
      switch digit {
      case 0x30...0x39: value = Int(digit - 0x30)
      case 0x41...0x46: value = Int(digit - 0x41 + 10)
      case 0x61...0x66: value = Int(digit - 0x61 + 10)
      default: throw HTTPResponseError(.malformed, "a chunk size of the answer is not hexadecimal")
      }
      let (times, overflow) = size.multipliedReportingOverflow(by: 16)
      let (sum, carry) = times.addingReportingOverflow(value)
      guard !overflow, !carry, sum <= limits.maxBodyBytes - body.count else { throw tooLarge() }
      size = sum
    }
    return size
  }

  private func tooLarge() -> HTTPResponseError {
    HTTPResponseError(
      .tooLarge, "the answer is larger than the \(limits.maxBodyBytes) bytes lifelog accepts here")
  }

  static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    guard let start = bytes.firstIndex(where: { !isSpace($0) }),
      let end = bytes.lastIndex(where: { !isSpace($0) })
    else { return [] }
    return bytes[start...end]
  }
}

/// Why an answer could not be read; the description is a clause for an error message.
public struct HTTPResponseError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Kind: Sendable {
    /// Not HTTP, or HTTP that breaks the rules: asking again will not help.
    case malformed
    /// Past the size limit: asking again will not help.
    case tooLarge
    /// The connection ended before the answer did: a network failure, worth a retry.
    case cutShort
  }

  public let kind: Kind
  public let description: String

  init(_ kind: Kind, _ description: String) {
    self.kind = kind
    self.description = description
  }
}
