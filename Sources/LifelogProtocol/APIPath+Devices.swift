/// The paths of pairing and devices (docs/http-api.md, "Devices"): a second device — the web app
/// on a phone — gets a token of its own from a one-time code, and each such token can be listed
/// and revoked by name.
extension APIPath.Segment {
  public static let pairings = "pairings"
  /// `pairings/redeem`: trades a one-time code for a device token.
  public static let redeem = "redeem"
  public static let devices = "devices"
}

extension APIPath {
  /// `POST /v1/pairings`: a new one-time pairing code for a device of a given name.
  public static let pairings = prefix + "/" + Segment.pairings
  /// `POST /v1/pairings/redeem`: the code for a long-lived device token; needs no token.
  public static let redeemPairing = pairings + "/" + Segment.redeem
  /// `GET /v1/devices`: the paired devices.
  public static let devices = prefix + "/" + Segment.devices

  /// `DELETE /v1/devices/{name}`: revokes one device's token.
  public static func device(_ name: String) -> String { devices + "/" + name }

  /// The longest device name: it goes in a path, so it follows ``isName(_:)`` and is shorter.
  public static let maximumDeviceNameLength = 64

  /// Whether `text` may name a paired device: 1–64 of `[A-Za-z0-9-]`.
  public static func isDeviceName(_ text: some StringProtocol) -> Bool {
    isName(text) && text.utf8.count <= maximumDeviceNameLength
  }
}

extension APIErrorCode {
  /// A token that may not do this: a device's token managing devices (403).
  public static let forbidden = "forbidden"
}

/// The paths of shared reports (docs/http-api.md, "Shares"): a report sealed under a key that
/// stays in the link's fragment, stored until it expires or is revoked.
extension APIPath {
  /// `GET /v1/shares` (list), `PUT`/`DELETE /v1/shares/{id}`, `GET /v1/shares/{id}/content`.
  public static let shares = prefix + "/shares"

  public static func share(_ id: String) -> String { shares + "/" + id }

  /// The ciphertext, for a viewer: needs no token.
  public static func shareContent(_ id: String) -> String { share(id) + "/content" }
}

extension APIErrorCode {
  /// A share that expired or was revoked: its ciphertext is deleted (410).
  public static let gone = "gone"
  /// A share with a passcode asked for without it, or with a wrong one (401).
  public static let passcodeRequired = "passcode_required"
  /// A wrong passcode for a share locked by too many: only the right one opens it (403).
  public static let locked = "locked"
  /// An account that holds the most shared reports it may at once (409).
  public static let tooManyShares = "too_many_shares"
}

extension APIHeader {
  /// `PUT /v1/shares/{id}`: when it expires (Unix ms).
  public static let shareExpires = "Lifelog-Share-Expires"
  /// `PUT /v1/shares/{id}`: the first and last day of the report, `YYYY-MM-DD`.
  public static let shareFrom = "Lifelog-Share-From"
  public static let shareTo = "Lifelog-Share-To"
  /// The share's passcode: set with `PUT`, given with `GET …/content`.
  public static let sharePasscode = "Lifelog-Share-Passcode"
}
