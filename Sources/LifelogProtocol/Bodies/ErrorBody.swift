import LifelogCore

/// The body of every error answer: `{"error":{"code":…,"message":…}}`.
///
/// Its codes are ``APIErrorCode``'s (docs/http-api.md). The server writes it with ``encoded``; the clients read the message with
/// ``init(parsing:)`` to say what the server said.
public struct ErrorBody: Equatable, Sendable {
  /// One of ``APIErrorCode``.
  public var code: String
  public var message: String

  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  public var encoded: JSONObjectWriter {
    var inner = JSONObjectWriter()
    inner.add("code", code)
    inner.add("message", message)
    var object = JSONObjectWriter()
    object.addRaw("error", inner.result)
    return object
  }

  /// Reads an error body; the `code` may be missing (an older or other server), the `message`
  /// may not.
  public init(parsing body: [UInt8]) throws(AnswerBodyError) {
    guard let json = try? JSONValue.parse(body), let error = json["error"],
      let message = error["message"]?.string
    else { throw AnswerBodyError("error") }
    self.init(code: error["code"]?.string ?? "", message: message)
  }
}
