import LifelogProtocol

/// Where a client's pull has got to: the server cursor of the last batch it has passed, and the
/// batches it holds through merged snapshots (a floor per device).
///
/// On the wire it is an opaque token of `[A-Za-z0-9_-]`: the cursor alone (`"1201"`), or with the
/// floor appended as `_<device>_<seq>` pairs (`"1201_8f3a…_120"`). Clients store it and send it back
/// unchanged; `""` is the beginning.
public struct ServerCursor: Equatable, Sendable {
  /// Batches with a server cursor up to this one have been passed.
  public var position: Int64
  /// Per device, the highest seq held through a snapshot: batches at or below it are skipped,
  /// and may have been deleted (compacted) without the client missing anything.
  public var floor: VersionVector

  public init(position: Int64 = 0, floor: VersionVector = VersionVector()) {
    self.position = position
    self.floor = floor
  }

  /// Reads a token: exactly the grammar docs/openapi.yaml states for `after`
  /// (`0` or a number of at most 18 digits without leading zeros, then `_<device>_<seq>` pairs).
  ///
  /// - Throws: ``HTTPError`` 400 when it was not made by this server.
  public init(token: String) throws(HTTPError) {
    self.init()
    guard !token.isEmpty else { return }
    let parts = token.split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count % 2 == 1, let position = Self.position(parts[0]) else {
      throw Self.malformed
    }
    self.position = position
    var index = 1
    while index < parts.count {
      guard DeviceID.isValid(parts[index]), let seq = try? Router.seq(parts[index + 1]) else {
        throw Self.malformed
      }
      floor[String(parts[index])] = seq
      index += 2
    }
  }

  /// `0`, or 1 to 18 digits without a leading zero (always within Int64).
  private static func position(_ text: Substring) -> Int64? {
    if text == "0" { return 0 }
    guard !text.isEmpty, text.utf8.count <= 18, text.first != "0",
      text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
    else { return nil }
    return Int64(text)
  }

  static let malformed = HTTPError.badRequest(
    "The cursor is not one this server gave out; start again from ''")

  /// The token, with devices in sorted order.
  ///
  /// A device that is not a ``DeviceID``, or a seq past 2^31 - 1 (from a snapshot stored before
  /// covers were checked), is left out: its `_` would make the token one ``init(token:)`` refuses, stopping every later
  /// pull. Without it the client is only sent batches it already holds, which merge as no-ops.
  public var token: String {
    var text = String(position)
    for device in floor.seqs.keys.sorted()
    where floor[device] > 0 && floor[device] <= Int(Int32.max) && DeviceID.isValid(device) {
      text += "_" + device + "_" + String(floor[device])
    }
    return text
  }
}

extension ServerCursor {
  /// This cursor once its client has merged `snapshot`.
  ///
  /// Its floor is raised to what the snapshot covers (except `excluded`, the client's own
  /// device); the same on every store.
  public func merging(_ snapshot: SnapshotRecord, excluding excluded: String?) -> ServerCursor {
    var result = self
    for (device, seq) in snapshot.covers.seqs where device != excluded && seq > result.floor[device]
    {
      result.floor[device] = seq
    }
    return result
  }
}
