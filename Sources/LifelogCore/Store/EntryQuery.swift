/// Which entries to read, and how many.
public struct EntryQuery: Sendable {
  /// Only entries at or after this instant (Unix seconds).
  public var from: Int64?
  /// Only entries before this instant (Unix seconds).
  public var to: Int64?
  public var activityID: String?
  /// The most recent `limit` entries (still returned oldest first); nil for all.
  public var limit: Int?
  /// Deleted entries instead of live ones.
  public var deleted: Bool

  public init(
    from: Int64? = nil, to: Int64? = nil, activityID: String? = nil, limit: Int? = nil,
    deleted: Bool = false
  ) {
    self.from = from
    self.to = to
    self.activityID = activityID
    self.limit = limit
    self.deleted = deleted
  }
}
