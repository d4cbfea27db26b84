import LifelogCore

/// One page of `GET /v1/changes` as the server sent it, its index checked against its bytes.
///
/// The page is a JSON index line, then the listed batches back to back (docs/http-api.md). Both
/// `sync` (``HTTPRemote/pull(after:excluding:rowLimit:rules:)``) and `lifelog check` read it, so
/// this is the one place that decides what a page may say: every number in the index is checked
/// before it is used to cut the body, and a server that lies gets a ``Failure``, never a trap.
struct ChangesPage {
  /// One listed batch and its bytes, not opened yet.
  struct Item {
    var device: String
    var seq: Int
    /// The batch's `cursor` in the server's order (where asking again would serve it), nil when
    /// the index leaves it out; `sync` needs it, `check` does not.
    var rank: Int64?
    var bytes: [UInt8]
  }

  /// Why a page was refused; each reader words it for its own user.
  enum Failure: Error, Equatable {
    /// No index line, an index that is not JSON, a cursor that is not a token, or no `batches`.
    case unreadable
    /// A listed batch whose size, seq or device does not fit: it is not in the body as listed.
    case badItem
  }

  /// Where the next page starts: a token (``HTTPPullState/isToken(_:)``).
  var cursor: String
  var more: Bool
  /// Whether the server stopped before batches compacted into a snapshot the reader lacks.
  var needsSnapshot: Bool
  var items: [Item]

  /// Parses and checks `body`.
  ///
  /// - Throws: ``Failure/unreadable`` when the index cannot be read, ``Failure/badItem`` when an
  ///   entry's `size` (0 up to the bytes left), `seq` (1 to `Int32.max`) or `device` (a path
  ///   segment) does not fit.
  init(parsing body: [UInt8]) throws(Failure) {
    guard let newline = body.firstIndex(of: 0x0A),
      let index = try? JSONValue.parse(body[..<newline]),
      let next = index["cursor"]?.string, HTTPPullState.isToken(next),
      case .array(let listed)? = index["batches"]
    else { throw .unreadable }
    cursor = next
    more = index["more"]?.bool ?? false
    needsSnapshot = index["needsSnapshot"]?.bool ?? false
    items = []
    var offset = newline + 1
    for entry in listed {
      guard let size = entry["size"]?.integer, size >= 0, size <= Int64(body.count - offset),
        let seq = entry["seq"]?.integer, seq >= 1, seq <= Int64(Int32.max),
        let device = entry["device"]?.string, HTTPRemote.isPathSegment(device)
      else { throw .badItem }
      let end = offset + Int(size)
      items.append(
        Item(
          device: device, seq: Int(seq), rank: entry["cursor"]?.integer,
          bytes: Array(body[offset..<end])))
      offset = end
    }
  }
}
