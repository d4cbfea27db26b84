import LifelogProtocol

/// What the server keeps of paired devices: one-time pairing codes and the long-lived tokens they
/// are traded for, both only as SHA-256 hashes (docs/http-api.md, "Devices").
///
/// A device token acts for its user like the user's own token on every sync route; only the user's
/// own token manages devices. Both stores implement it alike.
public protocol DeviceStorage: AnyObject {
  /// Keeps a pairing code (its hash) for a device `name` of `user` until `expires` (Unix ms),
  /// dropping every expired code first.
  ///
  /// - Returns: false, storing nothing, when the user already has a device of that name.
  func addPairing(user: Int64, name: String, codeSHA256: String, expires: Int64) throws -> Bool
  /// Trades a pairing code for a device token: the code is deleted whatever happens (it works
  /// once), and a device is added when the code was known and not expired at `now`.
  func redeemPairing(
    codeSHA256: String, tokenSHA256: String, now: Int64
  ) throws
    -> PairingRedemption
  /// The device whose token hashes to `tokenSHA256`, with its user.
  func device(tokenSHA256: String) throws -> PairedDevice?
  /// Records that a device made a request at `now`.
  func touchDevice(user: Int64, name: String, now: Int64) throws
  /// The user's devices, by name.
  func devices(user: Int64) throws -> [DeviceSummary]
  /// Deletes a device and its token, and the pairing codes not yet redeemed for its name (a
  /// second link made for that name must not pair it again); false when there is no device of
  /// that name.
  func removeDevice(user: Int64, name: String) throws -> Bool
}

/// What trading a pairing code did.
public enum PairingRedemption: Equatable, Sendable {
  /// A device was added for the user.
  case paired(user: ServerUser, name: String)
  /// No such code: never made, used already, or expired.
  case unknown
  /// The code was good, but a device of its name was paired meanwhile.
  case nameTaken(String)
}

/// A device token's owner, as a request authenticates it.
public struct PairedDevice: Equatable, Sendable {
  public var user: ServerUser
  public var name: String
  /// When it last made a request (Unix ms), nil before its first.
  public var lastUsed: Int64?
}

/// The SQL both stores run for devices, where it is the same text.
enum DeviceSQL {
  /// The tables, for each store's migration (SQLite `STRICT`; PostgreSQL `bigint`).
  static func tables(integer: String, strict: String) -> String {
    """
    CREATE TABLE devices (
      user_id \(integer) NOT NULL,
      name text NOT NULL,
      token_sha256 text NOT NULL UNIQUE,
      created \(integer) NOT NULL,
      last_used \(integer),
      PRIMARY KEY (user_id, name)
    )\(strict);
    CREATE TABLE pairings (
      code_sha256 text PRIMARY KEY,
      user_id \(integer) NOT NULL,
      name text NOT NULL,
      expires \(integer) NOT NULL
    )\(strict);
    """
  }
}
