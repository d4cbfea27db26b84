/// A value given by the user that lifelog cannot accept: a time it cannot read exactly, a negative
/// duration, a note that is too long, an unknown activity.
///
/// The message names the problem and how to fix it; nothing has been written when it is thrown.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
