/// A user of the server, as a request authenticates it.
public struct ServerUser: Equatable, Sendable {
  public var id: Int64
  public var name: String
  /// The `remoteId` of the user's manifest: a new one whenever the user is added again, so a client
  /// that synced with a removed user refuses to sync with the new one.
  public var remoteID: String

  /// Whether `name` can name a user: 1–64 letters, digits, `.`, `_` or `-`.
  public static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 64
      && name.utf8.allSatisfy {
        ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
          || $0 == 0x2D
          || $0 == 0x2E || $0 == 0x5F
      }
  }
}

/// One line of `lifelog serve user list`.
public struct UserSummary: Equatable, Sendable {
  public var name: String
  public var created: Int64
  public var batches: Int
  public var snapshots: Int
  public var bytes: Int64
}
