import LifelogProtocol

extension Router {
  /// The routes of pairing, devices and shares (`/v1/pairings`, `/v1/devices`, `/v1/shares`), or
  /// nil when `rest` (the segments after `/v1`) is none of them.
  static func deviceRoute(_ rest: [Substring], method: String) throws(HTTPError) -> Route? {
    let read = method == "GET" || method == "HEAD"
    switch rest.count {
    case 1 where rest[0] == APIPath.Segment.pairings:
      guard method == "POST" else { throw notAllowed("POST") }
      return .createPairing
    case 2 where rest[0] == APIPath.Segment.pairings && rest[1] == APIPath.Segment.redeem:
      guard method == "POST" else { throw notAllowed("POST") }
      return .redeemPairing
    case 1 where rest[0] == APIPath.Segment.devices:
      guard read else { throw notAllowed("GET, HEAD") }
      return .devices
    case 2 where rest[0] == APIPath.Segment.devices:
      guard APIPath.isDeviceName(rest[1]) else {
        throw .badRequest(
          "A device name may hold only letters, digits and '-' "
            + "(at most \(APIPath.maximumDeviceNameLength))")
      }
      guard method == "DELETE" else { throw notAllowed("DELETE") }
      return .revokeDevice(name: String(rest[1]))
    case 1 where rest[0] == "shares":
      guard read else { throw notAllowed("GET, HEAD") }
      return .shares
    case 2 where rest[0] == "shares":
      let id = try name(rest[1], what: "share id")
      if method == "PUT" { return .putShare(id: id) }
      guard method == "DELETE" else { throw notAllowed("PUT, DELETE") }
      return .revokeShare(id: id)
    case 3 where rest[0] == "shares" && rest[2] == "content":
      let id = try name(rest[1], what: "share id")
      guard read else { throw notAllowed("GET, HEAD") }
      return .shareContent(id: id)
    default:
      return nil
    }
  }
}
