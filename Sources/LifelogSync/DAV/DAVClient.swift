import LifelogCore

/// The WebDAV requests a ``DAVRemote`` makes (RFC 4918): `PROPFIND` with `Depth: 1`, `GET`, `PUT`
/// with `If-None-Match: *`, `MKCOL` and `DELETE`, over the HTTP remote's transport, so timeouts,
/// `Retry-After`, backoff, refused redirects and answer size caps are the same.
///
/// Each method turns the statuses it expects into a result and every other one into
/// ``SyncError/remoteUnavailable(_:reason:)`` naming the request and status; 507 and 413 say that
/// the storage or the quota is full.
final class DAVClient {
  let transport: HTTPTransport
  /// The root collection's path on the server, percent-encoded, without a trailing slash.
  let rootPath: String
  /// Requests sent, for the benchmark's count of a no-change sync.
  private(set) var requests = 0

  /// The largest `PROPFIND` answer read: about 400 bytes per file, so some 150,000 files.
  static let listingLimit = 64 << 20

  init(transport: HTTPTransport, rootPath: String) {
    self.transport = transport
    self.rootPath = rootPath
  }

  var location: String { transport.location }

  /// What a listing holds: the entries of the collection's members (itself left out) and the
  /// collection's own entry, with the server's clock when it answered.
  struct Listing {
    var members: [DAVMultistatus.Entry]
    var own: DAVMultistatus.Entry?
    /// The answer's `Date` (seconds since 1970), when it had one.
    var date: Int64?
  }

  /// The members of collection `path` (`""` for the root, else `devices/` and the like), or nil
  /// when it does not exist.
  func list(_ path: String) throws(SyncError) -> Listing? {
    let response = try send(
      "PROPFIND", path, body: DAVMultistatus.request, contentType: "application/xml; charset=utf-8",
      headers: [("Depth", "1")], limit: DAVClient.listingLimit)
    if response.status == 404 { return nil }
    guard response.status == 207 else { throw unexpected(response, "PROPFIND", path) }
    let entries: [DAVMultistatus.Entry]
    do {
      entries = try DAVMultistatus.parse(response.body)
    } catch {
      // The parser quotes names from the answer: a piece of the password among them is masked.
      throw .remoteUnavailable(
        location,
        reason:
          "its listing of '/\(path)' cannot be read: "
          + transport.scrubber.scrubbed(error.description))
    }
    var own = DAVClient.trimmedPath(DAVMultistatus.decodedPath(rootPath + "/" + path))
    if own.isEmpty { own = "/" }
    var listing = Listing(members: [], own: nil, date: response.date)
    for entry in entries {
      var path = DAVClient.trimmedPath(DAVMultistatus.decodedPath(entry.href))
      if path.isEmpty { path = "/" }
      if path == own { listing.own = entry } else { listing.members.append(entry) }
    }
    return listing
  }

  /// The file at `path`, or nil when there is none; at most `limit` bytes.
  func get(_ path: String, limit: Int) throws(SyncError) -> [UInt8]? {
    let response = try send("GET", path, limit: limit)
    if response.status == 404 { return nil }
    guard response.status == 200 else { throw unexpected(response, "GET", path) }
    return response.body
  }

  /// The first bytes of the file at `path` (up to `count`, or all of it when the server ignores
  /// the range), and whether they are the whole file; nil when there is none.
  func getStart(
    _ path: String, count: Int, limit: Int
  ) throws(SyncError) -> (bytes: [UInt8], whole: Bool)? {
    let response = try send(
      "GET", path, headers: [("Range", "bytes=0-\(count - 1)")], limit: limit)
    if response.status == 404 || response.status == 416 { return nil }
    guard response.status == 200 || response.status == 206 else {
      throw unexpected(response, "GET", path)
    }
    return (response.body, response.status == 200 || response.body.count < count)
  }

  enum PutOutcome { case created, exists, noParent }

  /// Stores a new file at `path`, unless the name is taken (where the server honours it).
  ///
  /// `If-None-Match: *` asks the server to refuse when the name is taken (412). A server that ignores it overwrites, which callers check by reading back where
  /// it matters.
  func putOnce(_ path: String, _ bytes: [UInt8]) throws(SyncError) -> PutOutcome {
    let response = try send(
      "PUT", path, body: bytes, contentType: "application/octet-stream",
      headers: [("If-None-Match", "*")], limit: 1 << 20)
    switch response.status {
    case 200, 201, 204: return .created
    case 412: return .exists
    // 409 per RFC 4918 §9.7.1; some servers (rclone) answer 404.
    case 409, 404: return .noParent
    default: throw unexpected(response, "PUT", path)
    }
  }

  enum MakeOutcome { case created, exists, noParent }

  /// Creates the collection `path`.
  func makeCollection(_ path: String) throws(SyncError) -> MakeOutcome {
    let response = try send("MKCOL", path, limit: 1 << 20)
    switch response.status {
    case 200, 201: return .created
    case 405: return .exists  // RFC 4918 §9.3.1: the name is taken
    case 409, 404: return .noParent
    default: throw unexpected(response, "MKCOL", path)
    }
  }

  /// Deletes the file at `path`; one already gone is fine.
  func delete(_ path: String) throws(SyncError) {
    let response = try send("DELETE", path, limit: 1 << 20)
    guard [200, 202, 204, 404].contains(response.status) else {
      throw unexpected(response, "DELETE", path)
    }
  }

  private func send(
    _ method: String, _ path: String, body: [UInt8]? = nil, contentType: String? = nil,
    headers: [(String, String)] = [], limit: Int
  ) throws(SyncError) -> HTTPTransport.Response {
    requests += 1
    return try transport.send(
      method, "/" + path, body: body, contentType: contentType, headers: headers, limit: limit)
  }

  private func unexpected(
    _ response: HTTPTransport.Response, _ method: String, _ path: String
  ) -> SyncError {
    let what: String
    switch response.status {
    case 507:
      what =
        "507 Insufficient Storage: the server's disk or your quota is full; free space on the "
        + "account, or compact with 'lifelog sync --compact'"
    case 413:
      what =
        "413 Content Too Large: the server refuses a file this large (an upload size limit or a "
        + "quota); raise the limit on the server"
    case 403:
      what = "403 Forbidden: the account may not do this here; check its permissions on the folder"
    default:
      // The server's own words, printable only, and none if any of the body echoes the password.
      let detail = transport.scrubber.shown(response.body, limit: 120) ?? ""
      let shown = detail.isEmpty ? "" : " (\(detail))"
      what = "\(response.status)" + shown
    }
    return .remoteUnavailable(location, reason: "\(method) /\(path) was answered \(what)")
  }

  private static func trimmedPath(_ path: String) -> String {
    var path = path
    while path.hasSuffix("/") { path.removeLast() }
    return path
  }
}
