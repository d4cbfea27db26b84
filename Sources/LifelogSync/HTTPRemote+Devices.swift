import LifelogCore
import LifelogProtocol

/// A one-time pairing code from `POST /v1/pairings`.
public struct PairingCode: Equatable, Sendable {
  public var code: String
  public var device: String
  /// Unix milliseconds after which the server refuses the code.
  public var expires: Int64
}

/// Pairing and devices on `lifelog serve` (docs/http-api.md, "Devices").
extension HTTPRemote {
  /// Asks for a one-time code that pairs a device named `name`.
  public func createPairing(name: String) throws(SyncError) -> PairingCode {
    var body = JSONObjectWriter()
    body.add("name", name)
    let response = try transport.send(
      "POST", APIPath.pairings, body: Array((body.result + "\n").utf8),
      contentType: ContentType.json)
    guard response.status == 201, let json = try? JSONValue.parse(response.body),
      let code = json["code"]?.string, let device = json["device"]?.string,
      let expires = json["expires"]?.integer
    else { throw refused(response, doing: "give a pairing code") }
    return PairingCode(code: code, device: device, expires: expires)
  }

  /// The account's paired devices (``DeviceListBody``), by name.
  public func pairedDevices() throws(SyncError) -> [DeviceSummary] {
    try fetch(APIPath.devices, doing: "list its devices", DeviceListBody.init(parsing:)).devices
  }

  /// Revokes a device's token; false when the server knows no device of that name.
  public func revokeDevice(name: String) throws(SyncError) -> Bool {
    try delete(APIPath.device(name), doing: "revoke '\(name)'")
  }

  /// `DELETE path`: true when done (200), false when the server has nothing there (404).
  func delete(_ path: String, doing what: String) throws(SyncError) -> Bool {
    let response = try transport.send("DELETE", path)
    switch response.status {
    case 200: return true
    case 404: return false
    default: throw refused(response, doing: what)
    }
  }

  /// `GET path`, its 200 answer read by `parse` (an answer body's checked reader).
  func fetch<Body>(
    _ path: String, doing what: String, _ parse: ([UInt8]) throws -> Body
  ) throws(SyncError) -> Body {
    let response = try transport.send("GET", path)
    guard response.status == 200, let body = try? parse(response.body) else {
      throw refused(response, doing: what)
    }
    return body
  }

  /// The error for an answer that is not the one asked for, with the server's own message.
  func refused(_ response: HTTPTransport.Response, doing what: String) -> SyncError {
    .remoteUnavailable(
      location,
      reason: "the server answered \(response.status) when asked to \(what): "
        + transport.serverMessage(response.body))
  }
}
