import LifelogCore

/// One shared report as `GET /v1/shares` lists it (docs/http-api.md, "Shares").
public struct ShareSummary: Equatable, Sendable {
  public var id: String
  /// The first and last day of the report, `YYYY-MM-DD`.
  public var from: String
  public var to: String
  /// When it was shared and when it expires, Unix milliseconds.
  public var created: Int64
  public var expires: Int64
  /// How often a viewer opened it, and when last.
  public var opened: Int
  public var lastOpened: Int64?
  /// `active`, `revoked`, `expired`, or `locked` by wrong passcodes.
  public var state: String
  public var hasPasscode: Bool

  public init(
    id: String, from: String, to: String, created: Int64, expires: Int64, opened: Int,
    lastOpened: Int64?, state: String, hasPasscode: Bool
  ) {
    self.id = id
    self.from = from
    self.to = to
    self.created = created
    self.expires = expires
    self.opened = opened
    self.lastOpened = lastOpened
    self.state = state
    self.hasPasscode = hasPasscode
  }
}

/// The body of `GET /v1/shares`: the account's shared reports, newest first.
///
/// The server writes it with ``encoded``; the HTTP remote reads it with ``init(parsing:)``, so
/// both sides share one spelling of every key.
public struct ShareListBody: Equatable, Sendable {
  public var shares: [ShareSummary]

  public init(shares: [ShareSummary]) { self.shares = shares }

  public var encoded: JSONObjectWriter {
    let items = shares.map { share in
      var object = JSONObjectWriter()
      object.add("id", share.id)
      object.add("from", share.from)
      object.add("to", share.to)
      object.addRaw("created", String(share.created))
      object.addRaw("expires", String(share.expires))
      object.add("opened", share.opened)
      object.addRaw("lastOpened", share.lastOpened.map { String($0) } ?? "null")
      object.add("state", share.state)
      object.add("passcode", share.hasPasscode)
      return object.result
    }
    var object = JSONObjectWriter()
    object.addRaw("shares", "[" + items.joined(separator: ",") + "]")
    return object
  }

  /// Reads a listing: `shares` must be an array, each item with its `id`, `from`, `to`,
  /// `created` and `expires`, an `opened` count if any; a missing `opened`, `state` or `passcode`
  /// reads as 0, "" and false.
  public init(parsing body: [UInt8]) throws(AnswerBodyError) {
    guard let json = try? JSONValue.parse(body), case .array(let items)? = json["shares"] else {
      throw AnswerBodyError("share list")
    }
    var shares: [ShareSummary] = []
    for item in items {
      guard let id = item["id"]?.string, let from = item["from"]?.string,
        let to = item["to"]?.string, let created = item["created"]?.integer,
        let expires = item["expires"]?.integer,
        let opened = item["opened"].map({ $0.integer.flatMap { Int(exactly: $0) } }) ?? 0,
        opened >= 0
      else { throw AnswerBodyError("share list") }
      shares.append(
        ShareSummary(
          id: id, from: from, to: to, created: created, expires: expires, opened: opened,
          lastOpened: item["lastOpened"]?.integer, state: item["state"]?.string ?? "",
          hasPasscode: item["passcode"]?.bool ?? false))
    }
    self.init(shares: shares)
  }
}
