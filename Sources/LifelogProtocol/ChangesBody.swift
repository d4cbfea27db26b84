import LifelogCore

/// The body of `GET /v1/changes`: one JSON index line, then the listed batches back to back.
///
/// The format is in docs/http-api.md. The server writes it with ``encoded``; `sync` and `lifelog check` read it
/// with ``init(parsing:)``, so the two sides share one spelling of every key.
///
/// Reading decides what a page may say: every number in the index is checked before it is used
/// to cut the body, and a server that lies gets a ``Failure``, never a trap.
public struct ChangesBody: Equatable, Sendable {
  /// One listed batch and its bytes, not opened yet.
  public struct Item: Equatable, Sendable {
    public var device: String
    public var seq: Int
    /// The batch's `cursor` in the server's order (where asking again would serve it).
    ///
    /// Nil when the index leaves it out; `sync` needs it, `check` does not. The server always
    /// writes it.
    public var rank: Int64?
    /// How many rows the batch holds, as the server counted them.
    ///
    /// Nil when the index leaves it out. Only informative: a reader counts what it decodes.
    public var rows: Int?
    public var bytes: [UInt8]
    /// Why the entry cannot be taken (its `seq` is missing or past ``WireRange/seq``).
    ///
    /// Nil for a sound entry. A refused entry has `seq` 0 and no bytes: it holds back its own
    /// device only, never the page.
    public var refusal: String?

    public init(
      device: String, seq: Int, rank: Int64?, rows: Int?, bytes: [UInt8], refusal: String? = nil
    ) {
      self.device = device
      self.seq = seq
      self.rank = rank
      self.rows = rows
      self.bytes = bytes
      self.refusal = refusal
    }
  }

  /// Why a page was refused; each reader words it for its own user.
  public enum Failure: Error, Equatable {
    /// No index line, an index that is not JSON, a cursor that is not a token, or no `batches`.
    case unreadable
    /// A listed batch whose size or device does not fit: it is not in the body as listed.
    case badItem
  }

  /// Where the next page starts: a ``CursorToken``.
  public var cursor: String
  public var more: Bool
  /// Whether the server stopped before batches compacted into a snapshot the reader lacks.
  public var needsSnapshot: Bool
  public var items: [Item]

  public init(cursor: String, more: Bool, needsSnapshot: Bool, items: [Item]) {
    self.cursor = cursor
    self.more = more
    self.needsSnapshot = needsSnapshot
    self.items = items
  }

  /// Parses and checks `body`.
  ///
  /// An entry whose `seq` is not in ``WireRange/seq`` is kept with a ``Item/refusal``: one device's
  /// bad record must not stop every device's pull.
  ///
  /// - Throws: ``Failure/unreadable`` when the index cannot be read, ``Failure/badItem`` when an
  ///   entry's `size` (0 up to the bytes left) or `device` (a path name, ``APIPath/isName(_:)``)
  ///   does not fit, so the body cannot be cut or the entry not be put down to a device.
  public init(parsing body: [UInt8]) throws(Failure) {
    guard let newline = body.firstIndex(of: 0x0A),
      let index = try? JSONValue.parse(body[..<newline]),
      let next = index["cursor"]?.string, CursorToken.isValid(next),
      case .array(let listed)? = index["batches"]
    else { throw .unreadable }
    cursor = next
    more = index["more"]?.bool ?? false
    needsSnapshot = index["needsSnapshot"]?.bool ?? false
    items = []
    var offset = newline + 1
    for entry in listed {
      guard let size = entry["size"]?.integer, size >= 0, size <= Int64(body.count - offset),
        let device = entry["device"]?.string, APIPath.isName(device)
      else { throw .badItem }
      let end = offset + Int(size)
      let rank = entry["cursor"]?.integer.flatMap { WireRange.cursor.contains($0) ? $0 : nil }
      let rows = WireRange.count.checked(entry["rows"]?.integer)
      if let seq = WireRange.seq.checked(entry["seq"]?.integer) {
        items.append(
          Item(
            device: device, seq: seq, rank: rank, rows: rows, bytes: Array(body[offset..<end])))
      } else {
        items.append(
          Item(
            device: device, seq: 0, rank: rank, rows: nil, bytes: [],
            refusal: "its seq is not a whole number from \(WireRange.seq)"))
      }
      offset = end
    }
  }

  /// The body as the server sends it: the index line (`cursor`, `more`, `needsSnapshot`, then
  /// `batches` with each item's `device`, `seq`, `cursor`, `rows` and `size`), then the bytes.
  public var encoded: [UInt8] {
    var index = "["
    var total = 0
    for (offset, item) in items.enumerated() {
      var object = JSONObjectWriter()
      object.add("device", item.device)
      object.add("seq", item.seq)
      if let rank = item.rank { object.addRaw("cursor", String(rank)) }
      if let rows = item.rows { object.add("rows", rows) }
      object.add("size", item.bytes.count)
      if offset > 0 { index += "," }
      index += object.result
      total += item.bytes.count
    }
    index += "]"
    var header = JSONObjectWriter()
    header.add("cursor", cursor)
    header.add("more", more)
    header.add("needsSnapshot", needsSnapshot)
    header.addRaw("batches", index)
    var body = Array((header.result + "\n").utf8)
    body.reserveCapacity(body.count + total)
    for item in items { body.append(contentsOf: item.bytes) }
    return body
  }
}

/// What a pull cursor looks like on the wire: an opaque token of `[A-Za-z0-9_-]` that the server
/// makes and the client stores and sends back unchanged (docs/http-api.md).
public enum CursorToken {
  /// The longest token a client keeps: far more than the server's (a number and a pair per
  /// device).
  public static let maximumLength = 16_384

  /// Whether `token` is one the client may store and send back in a query: `[A-Za-z0-9_-]`,
  /// bounded (`""` is the beginning).
  public static func isValid(_ token: String) -> Bool {
    token.utf8.count <= maximumLength
      && token.utf8.allSatisfy { byte in
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
          || byte == 45 || byte == 95
      }
  }
}
