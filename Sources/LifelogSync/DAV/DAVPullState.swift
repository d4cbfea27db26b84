import LifelogCore
import LifelogProtocol

/// The cursor of a WebDAV remote: the version vector a folder remote keeps, plus what was listed
/// last time, so a sync that finds nothing new costs a handful of requests however many files the
/// remote holds (docs/sync-protocol.md §4.4).
///
/// For each device folder read to its end, the folder's marker (its `getetag`) when it was
/// listed: while the server reports the same marker, nothing was
/// added there and the folder is not listed again. Likewise for `snapshots/`, and for this
/// device's own folder with how many batches it held. A marker is kept only when it is at least
/// two seconds older than the server's clock at the listing (``DAVRemote/settled(_:in:)``), so a
/// file added within the same tick of the folder's clock is never missed.
///
/// Encoded as one JSON object: `{"v":{…vector…},"d":{device: marker},"s":marker,"o":marker,"n":count}`.
/// Anything unreadable in it is dropped (listing again is always correct), except the vector,
/// which is read as a folder remote reads it.
struct DAVPullState: Equatable {
  var vector = VersionVector()
  var devices: [String: String] = [:]
  var snapshots: String?
  var own: String?
  var ownCount = 0

  /// The longest marker kept: an ETag or a date is far shorter.
  static let markerLimit = 200

  init(vector: VersionVector = VersionVector()) { self.vector = vector }

  init(parsing text: String) {
    guard let json = try? JSONValue.parse(Array(text.utf8)) else { return }
    if json["v"] == nil {
      // A plain vector (as a folder remote writes it): nothing remembered.
      vector = (try? VersionVector(json: json)) ?? VersionVector()
      return
    }
    vector = (try? VersionVector(json: json["v"])) ?? VersionVector()
    if case .object(let members)? = json["d"] {
      for (device, value) in members {
        if let marker = value.string, DAVPullState.isMarker(marker), APIPath.isName(device) {
          devices[device] = marker
        }
      }
    }
    snapshots = json["s"]?.string.flatMap { DAVPullState.isMarker($0) ? $0 : nil }
    own = json["o"]?.string.flatMap { DAVPullState.isMarker($0) ? $0 : nil }
    if let count = WireRange.count.checked(json["n"]?.integer) {
      ownCount = count
    } else {
      own = nil
    }
  }

  static func isMarker(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.count <= markerLimit
  }

  var encoded: String {
    var object = JSONObjectWriter()
    object.addRaw("v", vector.json)
    var markers = JSONObjectWriter()
    for device in devices.keys.sorted() { markers.add(device, devices[device]) }
    object.addRaw("d", markers.result)
    if let snapshots { object.add("s", snapshots) }
    if let own {
      object.add("o", own)
      object.add("n", ownCount)
    }
    return object.result
  }
}
