import LifelogCore
import LifelogProtocol

/// The manifest file of a remote made of files (`lifelog-remote.json`, docs/sync-protocol.md §4):
/// what a folder remote and a WebDAV remote write and read, whatever carries the bytes.
extension RemoteManifest {
  /// The file's bytes: one JSON object and a newline.
  ///
  /// An encrypted remote's manifest names its cipher.
  var fileBytes: [UInt8] {
    var object = JSONObjectWriter()
    object.add("lifelog", "remote")
    object.add("format", format)
    object.add("remoteId", remoteID)
    object.add("minVersion", minimumVersion)
    if encrypted { object.add("encryption", SealedHeader.cipher) }
    return Array((object.result + "\n").utf8)
  }

  /// The manifest in a file's bytes; nil when they are not one (the caller names the remote).
  init?(fileBytes bytes: [UInt8]) {
    guard let json = try? JSONValue.parse(bytes), json["lifelog"]?.string == "remote",
      let id = json["remoteId"]?.string, let format = json["format"]?.integer,
      let minimum = json["minVersion"]?.string
    else { return nil }
    self.init(
      remoteID: id, format: Int(format), minimumVersion: minimum,
      encrypted: json["encryption"] != nil)
  }
}
