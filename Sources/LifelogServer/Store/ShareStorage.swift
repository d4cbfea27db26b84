import LifelogProtocol

/// What the server keeps of shared reports (`lifelog share`, docs/web.md "For your doctor"): the
/// ciphertext of a report sealed under a key the server never sees, until it expires or is
/// revoked, with how often it was opened and, for a passcode, its hash and the wrong tries.
public protocol ShareStorage: AnyObject {
  /// Stores a new share; false, storing nothing, when the id is taken.
  func putShare(_ share: NewShare) throws -> Bool
  /// The user's shares, newest first.
  func shares(user: Int64) throws -> [ShareSummary]
  /// Revokes a share of the user, deleting its ciphertext; false when there is none.
  func revokeShare(user: Int64, id: String, now: Int64) throws -> Bool
  /// Opens a share for a viewer (``ShareRules/decide(_:passcodeSHA256:now:)``), recording the
  /// opening or the wrong try, and deleting the ciphertext once it is gone.
  func openShare(id: String, passcodeSHA256: String?, now: Int64) throws -> ShareOpening
}

/// A share as `PUT /v1/shares/{id}` stores it.
public struct NewShare: Sendable {
  public var user: Int64
  public var id: String
  public var from: String
  public var to: String
  public var created: Int64
  public var expires: Int64
  public var passcodeSHA256: String?
  public var bytes: [UInt8]
}

/// What a viewer's request for a share's ciphertext gets.
public enum ShareOpening: Equatable, Sendable {
  case content([UInt8])
  case unknown
  /// Expired or revoked: its ciphertext is deleted.
  case gone
  /// A passcode is needed (none or a wrong one was given); this many tries are left.
  case passcodeNeeded(triesLeft: Int)
  /// Too many wrong passcodes.
  case locked
}

/// The stored state of a share that ``ShareRules`` decides on.
struct ShareRecord {
  var expires: Int64
  var revoked: Bool
  var hasBytes: Bool
  var passcodeSHA256: String?
  var failures: Int
}

/// The rules of opening a share, the same on both stores.
enum ShareRules {
  /// Wrong passcodes after which a share is locked for good.
  static let maximumFailures = 5
  /// The longest a share may live.
  static let maximumLifetimeMilliseconds: Int64 = 90 * 86_400_000

  /// What to answer, and what to write: `countOpening` (one more opening), `failed` (one more
  /// wrong try), `dropBytes` (the ciphertext goes: expired).
  static func decide(
    _ record: ShareRecord, passcodeSHA256: String?, now: Int64
  ) -> (
    ShareOpening, countOpening: Bool, failed: Bool, dropBytes: Bool
  ) {
    if record.revoked || !record.hasBytes || record.expires <= now {
      return (.gone, false, false, record.hasBytes)
    }
    if let stored = record.passcodeSHA256 {
      if record.failures >= maximumFailures { return (.locked, false, false, false) }
      guard let given = passcodeSHA256 else {
        return (.passcodeNeeded(triesLeft: maximumFailures - record.failures), false, false, false)
      }
      guard given == stored else {
        let left = maximumFailures - record.failures - 1
        return (left > 0 ? .passcodeNeeded(triesLeft: left) : .locked, false, true, false)
      }
    }
    return (.content([]), true, false, false)
  }

  /// The state `share list` shows.
  static func state(
    revoked: Bool, expires: Int64, failures: Int, hasPasscode: Bool, now: Int64
  )
    -> String
  {
    if revoked { return "revoked" }
    if expires <= now { return "expired" }
    if hasPasscode, failures >= maximumFailures { return "locked" }
    return "active"
  }

  static func tables(integer: String, blob: String, strict: String) -> String {
    """
    CREATE TABLE shares (
      id text PRIMARY KEY,
      user_id \(integer) NOT NULL,
      range_from text NOT NULL,
      range_to text NOT NULL,
      created \(integer) NOT NULL,
      expires \(integer) NOT NULL,
      passcode_sha256 text,
      failures \(integer) NOT NULL DEFAULT 0,
      opened \(integer) NOT NULL DEFAULT 0,
      last_opened \(integer),
      revoked \(integer) NOT NULL DEFAULT 0,
      bytes \(blob)
    )\(strict);
    CREATE INDEX shares_by_user ON shares (user_id, created);
    """
  }
}
