import LifelogProtocol

/// A request the server refuses, with the status and the JSON error it answers
/// (`{"error":{"code","message"}}`, docs/http-api.md).
public struct HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
  public var status: Int
  /// A stable, machine-readable word, such as `bad_request` or `conflict`.
  public var code: String
  /// A sentence for people.
  public var message: String
  /// Seconds to wait before trying again (429, 503).
  public var retryAfter: Int?
  /// The methods a path takes (405).
  public var allow: String?

  public init(
    _ status: Int, _ code: String, _ message: String, retryAfter: Int? = nil, allow: String? = nil
  ) {
    self.status = status
    self.code = code
    self.message = message
    self.retryAfter = retryAfter
    self.allow = allow
  }

  public var description: String { "\(status) \(code): \(message)" }

  static func badRequest(_ message: String) -> HTTPError {
    HTTPError(400, APIErrorCode.badRequest, message)
  }
  static func notFound(_ message: String) -> HTTPError {
    HTTPError(404, APIErrorCode.notFound, message)
  }
  static func conflict(_ message: String) -> HTTPError {
    HTTPError(409, APIErrorCode.conflict, message)
  }
  static func unavailable(_ message: String) -> HTTPError {
    HTTPError(503, APIErrorCode.unavailable, message, retryAfter: 1)
  }
}
