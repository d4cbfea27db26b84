import LifelogProtocol

/// One page of `GET /v1/changes`.
public struct ChangesPage: Sendable {
  public struct Item: Sendable {
    public var device: String
    public var seq: Int
    public var cursor: Int64
    public var rows: Int
    public var bytes: [UInt8]
  }

  public var items: [Item]
  /// Where the next page starts.
  public var cursor: ServerCursor
  /// Whether another page is waiting now.
  public var more: Bool
  /// The page stopped before a deleted (compacted) batch that no snapshot the client merged
  /// covers: the client must merge a snapshot (`GET /v1/snapshots/latest`) before going on.
  public var needsSnapshot: Bool

  /// The page as the wire format writes it (``ChangesBody``), each item with its cursor and rows.
  public var body: ChangesBody {
    ChangesBody(
      cursor: cursor.token, more: more, needsSnapshot: needsSnapshot,
      items: items.map {
        ChangesBody.Item(
          device: $0.device, seq: $0.seq, rank: $0.cursor, rows: $0.rows, bytes: $0.bytes)
      })
  }
}
