import LifelogCore
import LifelogProtocol

/// What the server answers: a status, headers and a body.
public struct HTTPResponse: Sendable {
  public var status: Int
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]

  public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON object (one line, ending with a newline), marked `nosniff` so no browser takes an
  /// answer that echoes outside text (an error naming a path) for a page or a script.
  public static func json(_ status: Int, _ object: JSONObjectWriter) -> HTTPResponse {
    HTTPResponse(
      status: status,
      headers: [(APIHeader.contentType, ContentType.json), ("X-Content-Type-Options", "nosniff")],
      body: Array((object.result + "\n").utf8))
  }

  /// `{"error":{"code":…,"message":…}}`, with `Retry-After` when given.
  public static func error(_ error: HTTPError) -> HTTPResponse {
    var response = json(
      error.status, ErrorBody(code: error.code, message: error.message).encoded)
    if let seconds = error.retryAfter {
      response.headers.append((APIHeader.retryAfter, String(seconds)))
    }
    if error.status == 401 {
      response.headers.append(("WWW-Authenticate", "Bearer realm=\"lifelog\""))
    }
    if let allow = error.allow { response.headers.append(("Allow", allow)) }
    return response
  }

  /// The headers as the C layer takes them: `Name: value` lines.
  var headerText: String {
    headers.map { $0.name + ": " + $0.value }.joined(separator: "\n")
  }
}
