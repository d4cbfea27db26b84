import LifelogCore
import LifelogProtocol

/// Shared reports (docs/http-api.md, "Shares"): `PUT /v1/shares/{id}` stores a report sealed under
/// a key the server never sees, `GET /v1/shares` lists them, `DELETE /v1/shares/{id}` revokes one,
/// and `GET /v1/shares/{id}/content`, without a token, hands the ciphertext to a viewer: 410 once
/// expired or revoked, and behind a passcode when one was set (5 wrong tries lock it).
extension SyncServer {
  func putShare(id: String, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    guard !request.body.isEmpty else {
      throw HTTPError.badRequest("The body is empty; send the sealed report's bytes")
    }
    let now = ServerClock.milliseconds()
    guard let text = request.header(APIHeader.shareExpires), text.utf8.count <= 15,
      let expires = Int64(text), expires > now,
      expires <= now + ShareRules.maximumLifetimeMilliseconds + 60_000
    else {
      throw HTTPError.badRequest(
        "\(APIHeader.shareExpires) must be a time in Unix ms within the next 90 days")
    }
    let from = request.header(APIHeader.shareFrom) ?? ""
    let to = request.header(APIHeader.shareTo) ?? ""
    guard SyncServer.isDay(from), SyncServer.isDay(to), from <= to else {
      throw HTTPError.badRequest(
        "\(APIHeader.shareFrom) and \(APIHeader.shareTo) must be days (YYYY-MM-DD), in order")
    }
    let passcode = request.header(APIHeader.sharePasscode)
    if let passcode, passcode.isEmpty || passcode.utf8.count > 256 {
      throw HTTPError.badRequest("A passcode is 1 to 256 bytes")
    }
    let share = NewShare(
      user: user, id: id, from: from, to: to, created: now, expires: expires,
      passcodeSHA256: passcode.map { SyncServer.passcodeHash(id: id, passcode: $0) },
      bytes: request.body)
    guard try pool.withStore({ try $0.putShare(share) }) else {
      throw HTTPError.conflict("A share with id '\(id)' exists; make a new id")
    }
    var object = JSONObjectWriter()
    object.add("id", id)
    object.addRaw("expires", String(expires))
    return .json(201, object)
  }

  func shares(request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    let shares = try pool.withStore { try $0.shares(user: user) }
    return .json(200, ShareListBody(shares: shares).encoded)
  }

  func revokeShare(id: String, user: Int64) throws -> HTTPResponse {
    let now = ServerClock.milliseconds()
    guard try pool.withStore({ try $0.revokeShare(user: user, id: id, now: now) }) else {
      throw HTTPError.notFound("No share has the id '\(id)'; see 'lifelog share list'")
    }
    var object = JSONObjectWriter()
    object.add("id", id)
    object.add("status", "revoked")
    return .json(200, object)
  }

  func shareContent(id: String, request: HTTPRequest) throws -> HTTPResponse {
    let passcode = request.header(APIHeader.sharePasscode).map {
      SyncServer.passcodeHash(id: id, passcode: $0)
    }
    let now = ServerClock.milliseconds()
    switch try pool.withStore({ try $0.openShare(id: id, passcodeSHA256: passcode, now: now) }) {
    case .content(let bytes):
      // The bytes are whatever the account's token stored, served without a token on this
      // server's origin: a browser sent here must never render or run them as a page of it.
      return HTTPResponse(
        status: 200,
        headers: [
          (APIHeader.contentType, ContentType.keyEnvelope), ("Cache-Control", "no-store"),
          ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff"),
          ("Content-Security-Policy", "default-src 'none'; sandbox"),
          ("Content-Disposition", "attachment"),
        ], body: bytes)
    case .unknown: throw HTTPError.notFound("No such shared report")
    case .gone:
      throw HTTPError(410, APIErrorCode.gone, "This shared report has expired or was revoked")
    case .passcodeNeeded(let left):
      throw HTTPError(
        401, APIErrorCode.passcodeRequired,
        "This shared report needs its passcode (\(left) tries left)")
    case .locked:
      throw HTTPError(
        403, APIErrorCode.locked, "This shared report is locked after too many wrong passcodes")
    }
  }

  /// The passcode as stored: the SHA-256 of the share's id and the passcode (the report is also
  /// sealed under a key only the link holds, so the passcode is a second lock, not the only one).
  static func passcodeHash(id: String, passcode: String) -> String {
    ServerDigest.hexDigest(ArraySlice(("lifelog-share\n" + id + "\n" + passcode).utf8))
  }

  /// Whether `text` is `YYYY-MM-DD`.
  static func isDay(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.count == 10 && bytes[4] == 0x2D && bytes[7] == 0x2D
      && bytes.enumerated().allSatisfy {
        $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element)
      }
  }
}
