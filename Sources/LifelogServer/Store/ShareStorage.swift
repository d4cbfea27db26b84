import LifelogProtocol

/// What the server keeps of shared reports (`lifelog share`, docs/web.md "For your doctor"): the
/// ciphertext of a report sealed under a key the server never sees, until it expires or is
/// revoked, with how often it was opened and, for a passcode, its hash and the wrong tries.
public protocol ShareStorage: AnyObject {
  /// Stores a new share, unless its id is taken or its user has
  /// ``ShareRules/maximumActivePerUser`` shares holding a report (then nothing is stored).
  func putShare(_ share: NewShare) throws -> ShareStoring
  /// The user's shares, newest first.
  func shares(user: Int64) throws -> [ShareSummary]
  /// Revokes a share of the user, deleting its ciphertext; false when there is none.
  func revokeShare(user: Int64, id: String, now: Int64) throws -> Bool
  /// The stored passcode of a share (``SharePasscode``), nil when it has none or there is none.
  func sharePasscode(id: String) throws -> String?
  /// The ids and stored passcodes in an older server's form (a bare SHA-256).
  func legacySharePasscodes() throws -> [(id: String, stored: String)]
  /// Replaces a share's stored passcode `old` with `new` (nothing when it is no longer `old`).
  func replaceSharePasscode(id: String, old: String, new: String) throws
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
  /// The passcode as kept (``SharePasscode/hash(id:passcode:)``; the column keeps its old name).
  public var passcodeSHA256: String?
  public var bytes: [UInt8]
}

/// What storing a share did.
public enum ShareStoring: Equatable, Sendable {
  case stored
  /// Another share has that id.
  case idTaken
  /// The user has ``ShareRules/maximumActivePerUser`` shares holding a report already.
  case tooMany
}

/// What a viewer's request for a share's ciphertext gets.
public enum ShareOpening: Equatable, Sendable {
  case content([UInt8])
  case unknown
  /// Expired or revoked: its ciphertext is deleted.
  case gone
  /// A passcode is needed (none or a wrong one was given); this many tries are left before the
  /// share is locked (0: it is).
  case passcodeNeeded(triesLeft: Int)
  /// A wrong passcode for a share locked by too many: only its right passcode opens it now
  /// (whoever tries wrong ones cannot lock the doctor out; they are slowed per address instead).
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
  /// Wrong passcodes after which a share is locked: then only its right passcode opens it.
  static let maximumFailures = 5
  /// Shares still holding a report (not expired or revoked) one account may have at once.
  static let maximumActivePerUser = 100
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
      let left = max(0, maximumFailures - record.failures)
      guard let given = passcodeSHA256 else {
        return (.passcodeNeeded(triesLeft: left), false, false, false)
      }
      guard given == stored else {
        if left == 0 { return (.locked, false, false, false) }
        return (left > 1 ? .passcodeNeeded(triesLeft: left - 1) : .locked, false, true, false)
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
