import LifelogCore

/// One paired device as `GET /v1/devices` lists it (docs/http-api.md, "Devices").
public struct DeviceSummary: Equatable, Sendable {
  public var name: String
  /// When it was paired, Unix milliseconds.
  public var created: Int64
  /// When it last made a request, nil before its first.
  public var lastUsed: Int64?

  public init(name: String, created: Int64, lastUsed: Int64?) {
    self.name = name
    self.created = created
    self.lastUsed = lastUsed
  }
}

/// The body of `GET /v1/devices`: the account's paired devices, by name.
///
/// The server writes it with ``encoded``; the HTTP remote reads it with ``init(parsing:)``.
public struct DeviceListBody: Equatable, Sendable {
  public var devices: [DeviceSummary]

  public init(devices: [DeviceSummary]) { self.devices = devices }

  public var encoded: JSONObjectWriter {
    let items = devices.map { device in
      var object = JSONObjectWriter()
      object.add("name", device.name)
      object.addRaw("created", String(device.created))
      object.addRaw("lastUsed", device.lastUsed.map { String($0) } ?? "null")
      return object.result
    }
    var object = JSONObjectWriter()
    object.addRaw("devices", "[" + items.joined(separator: ",") + "]")
    return object
  }

  /// Reads a listing: `devices` must be an array, each item with its `name` and `created`.
  public init(parsing body: [UInt8]) throws(AnswerBodyError) {
    guard let json = try? JSONValue.parse(body), case .array(let items)? = json["devices"] else {
      throw AnswerBodyError("device list")
    }
    var devices: [DeviceSummary] = []
    for item in items {
      guard let name = item["name"]?.string, let created = item["created"]?.integer else {
        throw AnswerBodyError("device list")
      }
      devices.append(
        DeviceSummary(name: name, created: created, lastUsed: item["lastUsed"]?.integer))
    }
    self.init(devices: devices)
  }
}
