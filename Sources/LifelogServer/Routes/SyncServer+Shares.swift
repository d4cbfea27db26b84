import LifelogCore
import LifelogProtocol

/// Shared reports (docs/http-api.md, "Shares"): `PUT /v1/shares/{id}` stores a report sealed under
/// a key the server never sees, `GET /v1/shares` lists them, `DELETE /v1/shares/{id}` revokes one,
/// and `GET /v1/shares/{id}/content`, without a token, hands the ciphertext to a viewer: 410 once
/// expired or revoked, and behind a passcode when one was set (5 wrong tries lock it against
/// every wrong one, never against the right one; wrong ones are slowed per client address).
/// Only the account's own token manages shares: a paired phone's token cannot.
extension SyncServer {
  func putShare(id: String, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    try requireAccountToken(request, toManage: "shared reports")
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
      passcodeSHA256: passcode.map { SharePasscode.hash(id: id, passcode: $0) },
      bytes: request.body)
    switch try pool.withStore({ try $0.putShare(share) }) {
    case .stored: break
    case .idTaken: throw HTTPError.conflict("A share with id '\(id)' exists; make a new id")
    case .tooMany:
      throw HTTPError(
        409, APIErrorCode.tooManyShares,
        "This account has \(ShareRules.maximumActivePerUser) shared reports already; "
          + "revoke one ('lifelog share revoke ID') or wait for one to expire")
    }
    var object = JSONObjectWriter()
    object.add("id", id)
    object.addRaw("expires", String(expires))
    return .json(201, object)
  }

  func shares(request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    try requireAccountToken(request, toManage: "shared reports")
    let shares = try pool.withStore { try $0.shares(user: user) }
    return .json(200, ShareListBody(shares: shares).encoded)
  }

  func revokeShare(id: String, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    try requireAccountToken(request, toManage: "shared reports")
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
    let given = request.header(APIHeader.sharePasscode)
    // One passcode check at a time per address, admitted before its slow hash: else every
    // request sent at once would pass the check below before the first wrong one is counted.
    let client = request.clientKey
    let oneAtATime = given != nil && passcodeLimiter.rate > 0
    if oneAtATime {
      guard passcodeChecks.enter(client) else {
        throw HTTPError(
          429, APIErrorCode.rateLimited,
          "A passcode from this address is being checked; wait 1 s", retryAfter: 1)
      }
    }
    defer { if oneAtATime { passcodeChecks.leave(client) } }
    if given != nil, let wait = passcodeLimiter.check(client, now: request.startedNanoseconds) {
      throw HTTPError(
        429, APIErrorCode.rateLimited,
        "Too many wrong passcodes from this address; wait \(wait) s", retryAfter: wait)
    }
    // The slow hash is checked outside the store's write, so a try holds up no push; the share
    // is then opened with the stored value when it matched, else with one that never does.
    var passcode: String?
    if let given {
      let stored = try pool.withStore { try $0.sharePasscode(id: id) }
      passcode =
        if let stored, SharePasscode.matches(stored, id: id, passcode: given) { stored } else { "" }
    }
    let now = ServerClock.milliseconds()
    let opening = try pool.withStore {
      try $0.openShare(id: id, passcodeSHA256: passcode, now: now)
    }
    switch opening {
    case .passcodeNeeded, .locked:
      // A wrong passcode costs this address one of its few tries.
      if given != nil {
        _ = passcodeLimiter.admit(client, now: request.startedNanoseconds)
      }
    default: break
    }
    switch opening {
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
        left > 0
          ? "This shared report needs its passcode (\(left) tries left)"
          : "This shared report needs its passcode (locked by wrong ones: only the right one opens it)"
      )
    case .locked:
      throw HTTPError(
        403, APIErrorCode.locked,
        "Too many wrong passcodes were tried: only the right one opens this shared report now")
    }
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
