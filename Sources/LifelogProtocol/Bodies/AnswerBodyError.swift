/// Why an answer body was refused.
///
/// Not JSON, or a member missing, of the wrong type or out of range. Each reader words it for its own user; nothing of the body is trusted past it.
public struct AnswerBodyError: Error, Equatable, Sendable {
  /// The body, in the words of a message: "manifest", "snapshot description", ...
  public var body: String

  public init(_ body: String) { self.body = body }
}
