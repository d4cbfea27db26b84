/// One request: method, path, headers, query and body, as a value.
///
/// ``HTTPListener`` fills it from libmicrohttpd (which bounds the headers and query to its memory
/// per connection, and the body to ``HTTPListener/Configuration/maxBodyBytes``); a test builds one
/// directly, so every route and admission rule runs in process, without a socket.
public struct HTTPRequest: Sendable {
  /// The method: `GET`, `PUT`, and so on.
  public var method: String
  /// The percent-decoded path, without the query string.
  public var path: String
  /// The headers in the order they came.
  public var headers: [(name: String, value: String)]
  /// The percent-decoded query arguments in the order they came; the value is nil for an argument
  /// without `=` (`?meta`).
  public var queryArguments: [(name: String, value: String?)]
  /// The whole body: empty while only the headers have arrived (``HTTPHandling/admit(_:)``).
  public var body: [UInt8]
  /// Whether the body is, or was declared to be, larger than the server keeps.
  public var bodyTooLarge: Bool
  /// Requests the server has begun and not completed, this one included.
  public var activeRequests: Int
  /// Monotonic nanoseconds when the headers arrived.
  public var startedNanoseconds: UInt64
  /// What the client's address is counted as by the limits per address: an IPv4 address whole,
  /// an IPv6 one by its /64 (16 bytes, `lh_client_key`); empty when unknown.
  public var clientKey: [UInt8]

  public init(
    method: String, path: String, headers: [(name: String, value: String)] = [],
    queryArguments: [(name: String, value: String?)] = [], body: [UInt8] = [],
    bodyTooLarge: Bool = false, activeRequests: Int = 1, startedNanoseconds: UInt64 = 0,
    clientKey: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.headers = headers
    self.queryArguments = queryArguments
    self.body = body
    self.bodyTooLarge = bodyTooLarge
    self.activeRequests = activeRequests
    self.startedNanoseconds = startedNanoseconds
    self.clientKey = clientKey
  }

  /// The first header of that name (case-insensitive), as libmicrohttpd looked it up.
  public func header(_ name: String) -> String? {
    headers.first { HTTPRequest.sameName($0.name, name) }?.value
  }

  /// The value of the first query argument of that name (case-insensitive, as libmicrohttpd
  /// looked it up: `?LIMIT=5` is `limit`); nil when it is missing or has no `=`.
  public func query(_ name: String) -> String? {
    queryArguments.first { HTTPRequest.sameName($0.name, name) }?.value ?? nil
  }

  /// Whether two names are the same ignoring ASCII case.
  static func sameName(_ left: String, _ right: String) -> Bool {
    left.utf8.count == right.utf8.count
      && zip(left.utf8, right.utf8).allSatisfy { lowercased($0) == lowercased($1) }
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
  }
}
