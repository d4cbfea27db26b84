/// How a command names an entry: an id or a prefix of one, or `last`, `-1`, `-2`, … counting
/// back from the most recent entry by time (the bottom row of `lifelog list`).
public enum EntryReference: Hashable, Sendable {
  case id(String)
  /// 1 is the most recent.
  case recent(Int)

  /// How far back `-N` may count: far enough for any hand-typed use, small enough that the
  /// OFFSET stays cheap.
  public static let maximumBack = 1000

  public init(parsing text: String) throws(InputError) {
    if text.lowercased() == "last" {
      self = .recent(1)
      return
    }
    if text.hasPrefix("-") {
      let digits = text.dropFirst()
      guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCIIDigit),
        let back = Int(digits),
        (1...EntryReference.maximumBack).contains(back)
      else {
        throw InputError(
          "'\(text)' is not an entry reference; use 'last', or -1 to -\(EntryReference.maximumBack) to count back"
        )
      }
      self = .recent(back)
      return
    }
    self = .id(text)
  }
}

extension LogStore {
  /// The full id of the entry `reference` names.
  ///
  /// - Parameters:
  ///   - activityID: with `last`/`-N`, count only this activity's entries.
  ///   - deleted: with `last`/`-N`, count deleted entries instead of live ones (for `restore`).
  /// - Throws: ``InputError`` when nothing matches.
  public func resolve(
    _ reference: EntryReference, activityID: String? = nil, deleted: Bool = false
  ) throws
    -> String
  {
    switch reference {
    case .id(let prefix):
      return try resolveEntryID(prefix)
    case .recent(let back):
      if let id = try recentEntryID(back: back, activityID: activityID, deleted: deleted) {
        return id
      }
      // An empty log: the first thing a new user tries; say how to begin.
      if !deleted, activityID == nil,
        try back == 1 || recentEntryID(back: 1, activityID: nil, deleted: false) == nil
      {
        throw InputError("There are no entries yet; add one first, as in 'lifelog add breakfast'")
      }
      let what =
        (deleted ? "deleted " : "") + (activityID == nil ? "entries" : "entries of that activity")
      throw InputError(
        back == 1
          ? "There are no \(what) yet; run 'lifelog list\(deleted ? " --deleted" : "")' to see the log"
          : "There are fewer than \(back) \(what); run 'lifelog list\(deleted ? " --deleted" : "")' to see them"
      )
    }
  }
}
