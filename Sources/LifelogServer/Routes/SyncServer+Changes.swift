import LifelogCore
import LifelogProtocol

/// `GET /v1/changes` (docs/http-api.md).
extension SyncServer {
  /// The page after the request's cursor, read on `store` (in the transaction of its caller).
  func changes(request: HTTPRequest, user: Int64, store: any ServerStorage) throws -> HTTPResponse {
    let cursor = try ServerCursor(token: request.query(APIQuery.after) ?? "")
    let excluded = try request.query(APIQuery.exclude).map { text throws(HTTPError) in
      try Router.name(Substring(text), what: "device id")
    }
    var limits = configuration.pageLimits
    limits.batches = try bounded(
      request.query(APIQuery.limit), name: APIQuery.limit, default: min(100, limits.batches),
      maximum: limits.batches)
    limits.rows = try bounded(
      request.query(APIQuery.rows), name: APIQuery.rows, default: limits.rows, maximum: limits.rows)
    let page = try store.changes(user: user, after: cursor, excluding: excluded, limits: limits)
    return ChangesEncoding.response(page)
  }

  /// A whole number of at least 1, capped at `maximum` however many digits it has (the API says
  /// "at most this many"; a larger one asks for the most the server gives).
  func bounded(
    _ text: String?, name: String, default value: Int, maximum: Int
  ) throws(HTTPError) -> Int {
    guard let text else { return value }
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      text.contains(where: { $0 != "0" })
    else {
      throw HTTPError.badRequest(
        "'\(name)' must be a whole number from 1 (at most \(maximum) is used)")
    }
    guard let number = Int(text) else { return maximum }
    return min(number, maximum)
  }
}

/// The body of `GET /v1/changes`: one JSON line indexing the page, then each batch's bytes
/// (``ChangesBody``, the wire format the client reads).
public enum ChangesEncoding {
  public static let contentType = ContentType.changes

  public static func response(_ page: ChangesPage) -> HTTPResponse {
    HTTPResponse(
      status: 200, headers: [(APIHeader.contentType, contentType)], body: page.body.encoded)
  }
}
