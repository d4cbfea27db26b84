import LifelogCore
import LifelogProtocol

/// Pairing and devices (docs/http-api.md, "Devices"): `POST /v1/pairings` makes a one-time code,
/// `POST /v1/pairings/redeem` trades it for a device token, `GET /v1/devices` lists the devices and
/// `DELETE /v1/devices/{name}` revokes one.
extension SyncServer {
  /// How long a pairing code can be redeemed: long enough to scan a QR code, short enough that a
  /// link seen later (a screenshot, a shoulder) is worth nothing.
  public static let pairingLifetimeMilliseconds: Int64 = 10 * 60 * 1000
  /// The largest JSON body of a pairing request: a name or a code is well under 1 KiB.
  static let maximumPairingBody = 4096
  /// A device's `last_used` is written at most once a minute, not on every request.
  static let deviceTouchInterval: Int64 = 60_000

  func createPairing(request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    try requireAccountToken(request)
    let name = try SyncServer.bodyText(request, key: "name")
    guard APIPath.isDeviceName(name) else {
      throw HTTPError.badRequest(
        "A device name may hold only letters, digits and '-' "
          + "(at most \(APIPath.maximumDeviceNameLength))")
    }
    let code = SecretToken.make(prefix: "llp_")
    let expires = ServerClock.milliseconds() + SyncServer.pairingLifetimeMilliseconds
    let added = try pool.withStore {
      try $0.addPairing(
        user: user, name: name, codeSHA256: ServerDigest.hexDigest(ArraySlice(code.utf8)),
        expires: expires)
    }
    guard added else {
      throw HTTPError.conflict(
        "A device named '\(name)' is paired already; revoke it first or choose another name")
    }
    var object = JSONObjectWriter()
    object.add("code", code)
    object.add("device", name)
    object.addRaw("expires", String(expires))
    return .json(201, object)
  }

  func redeemPairing(request: HTTPRequest) throws -> HTTPResponse {
    let code = try SyncServer.bodyText(request, key: "code")
    let token = SecretToken.make(prefix: "lld_")
    let outcome = try pool.withStore {
      try $0.redeemPairing(
        codeSHA256: ServerDigest.hexDigest(ArraySlice(code.utf8)),
        tokenSHA256: ServerDigest.hexDigest(ArraySlice(token.utf8)),
        now: ServerClock.milliseconds())
    }
    switch outcome {
    case .paired(let user, let name):
      var object = JSONObjectWriter()
      object.add("token", token)
      object.add("device", name)
      object.add("user", user.name)
      return .json(201, object)
    case .unknown:
      throw HTTPError.notFound(
        "This pairing code is unknown, used already or expired; run 'lifelog pair' again")
    case .nameTaken(let name):
      throw HTTPError.conflict(
        "A device named '\(name)' was paired meanwhile; run 'lifelog pair' with another --name")
    }
  }

  func devices(request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    try requireAccountToken(request)
    let devices = try pool.withStore { try $0.devices(user: user) }
    return .json(200, DeviceListBody(devices: devices).encoded)
  }

  func revokeDevice(name: String, request: HTTPRequest, user: Int64) throws -> HTTPResponse {
    try requireAccountToken(request)
    guard try pool.withStore({ try $0.removeDevice(user: user, name: name) }) else {
      throw HTTPError.notFound("No device is named '\(name)'; see 'lifelog pair --list'")
    }
    var object = JSONObjectWriter()
    object.add("device", name)
    object.add("status", "revoked")
    return .json(200, object)
  }

  /// Refuses a device's token: only the account's own token pairs, lists and revokes devices,
  /// and stores, lists and revokes shared reports, so a lost phone cannot lock its owner out,
  /// pair more devices, or revoke the doctor's link.
  func requireAccountToken(_ request: HTTPRequest, toManage what: String = "devices") throws {
    let hash = SyncServer.tokenHash(request) ?? ""
    guard try pool.withStore({ try $0.user(tokenSHA256: hash) }) != nil else {
      throw HTTPError(
        403, APIErrorCode.forbidden,
        "A paired device's token cannot manage \(what); use the account's own token")
    }
  }

  /// The user of a device token, recording when it was used (at most once a minute, and only
  /// when `store` is nil: inside a read of the store nothing is written).
  func deviceUser(tokenSHA256 hash: String, store: (any ServerStorage)?) throws -> ServerUser? {
    if let store { return try store.device(tokenSHA256: hash)?.user }
    return try pool.withStore { store in
      guard let device = try store.device(tokenSHA256: hash) else { return nil }
      let now = ServerClock.milliseconds()
      if now - (device.lastUsed ?? 0) >= SyncServer.deviceTouchInterval {
        try store.touchDevice(user: device.user.id, name: device.name, now: now)
      }
      return device.user
    }
  }

  /// The string value of `key` in a small JSON object body.
  static func bodyText(_ request: HTTPRequest, key: String) throws -> String {
    guard request.body.count <= maximumPairingBody,
      let json = try? JSONValue.parse(request.body), let value = json[key]?.string,
      !value.isEmpty
    else {
      throw HTTPError.badRequest(
        "The body must be a JSON object of at most \(maximumPairingBody) bytes with a "
          + "non-empty string '\(key)'")
    }
    return value
  }
}

extension SyncServer {
  /// The SHA-256 of the bearer token a request carries (after ``authenticate(_:store:)`` passed).
  static func tokenHash(_ request: HTTPRequest) -> String? {
    guard let header = request.header(APIHeader.authorization) else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2 else { return nil }
    return ServerDigest.hexDigest(ArraySlice(parts[1].utf8))
  }
}
