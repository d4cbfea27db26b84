import LifelogCore

/// The body of `GET /v1/batches/{device}`: how many batches of a device the server holds.
///
/// The format is in docs/http-api.md. The server writes it with ``encoded``; the HTTP remote reads it with
/// ``init(parsing:)``.
public struct BatchCountBody: Equatable, Sendable {
  public var device: String?
  /// How many batches are held, 0 or more.
  public var batches: Int
  /// The highest seq held, 0 when none is.
  public var highestSeq: Int?

  public init(device: String? = nil, batches: Int, highestSeq: Int? = nil) {
    self.device = device
    self.batches = batches
    self.highestSeq = highestSeq
  }

  public var encoded: JSONObjectWriter {
    var object = JSONObjectWriter()
    if let device { object.add("device", device) }
    object.add("batches", batches)
    if let highestSeq { object.add("highestSeq", highestSeq) }
    return object
  }

  /// Reads a count: `batches` must be a whole number, 0 or more.
  public init(parsing body: [UInt8]) throws(AnswerBodyError) {
    guard let json = try? JSONValue.parse(body), let count = json["batches"]?.integer,
      let batches = Int(exactly: count), batches >= 0
    else { throw AnswerBodyError("batch count") }
    self.init(
      device: json["device"]?.string, batches: batches,
      highestSeq: json["highestSeq"]?.integer.flatMap { Int(exactly: $0) })
  }
}
