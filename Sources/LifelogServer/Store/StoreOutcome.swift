/// What storing a batch did.
public enum StoreOutcome: Equatable, Sendable {
  /// Stored now, under this server cursor.
  case created(cursor: Int64)
  /// The same bytes were already stored under this cursor.
  case exists(cursor: Int64)
  /// Different bytes are stored under the name.
  case conflict
  /// The user was removed while the batch waited to be committed (another server process removed
  /// them); nothing was stored. Answered 401 for this batch alone, not for the others committed
  /// with it.
  case userRemoved
}

extension StoreOutcome {
  /// The outcome without the cursor.
  public var put: PutOutcome {
    switch self {
    case .created: .created
    case .exists: .exists
    case .conflict, .userRemoved: .conflict  // the route answers .userRemoved with 401 first
    }
  }
}

/// What storing an immutable object (a key envelope; a batch or snapshot through
/// ``StoreOutcome/put``) did.
public enum PutOutcome: Equatable, Sendable {
  /// Stored now (for a key envelope: as the newest version).
  case created
  /// The same bytes are already stored under the name (a retried request).
  case exists
  /// Other bytes hold the name (for a key envelope, also: the version is not the newest + 1,
  /// because another machine changed the passphrase first); nothing was stored.
  case conflict
}
