import LifelogCore
import LifelogProtocol
import LifelogSync

extension LifelogCommand {
  /// `lifelog pair`: a link (and QR code) that pairs the web app on a phone with this log's
  /// server remote; also lists and revokes paired devices (docs/web.md).
  struct Pair: Command {
    static let configuration = CommandConfiguration(
      commandName: "pair",
      abstract: "Pair a phone's browser with your lifelog server; list or revoke devices.",
      discussion: """
        Asks the server of REMOTE (an http:// or https:// remote; the only one when there is one) for a
        one-time code and prints a link, with a QR code, that opens the web app and makes it a device
        of your account. The link works once, within 10 minutes. Everything secret in it (the code
        and, for an encrypted remote, the data key) is in the part after '#', which browsers never
        send to a server. Open it only on your own device.
        """,
      arguments: [remote],
      options: [name, list, revoke, TimeoutOption.server.spec, TextOrJSON.option.spec],
      examples: [
        "lifelog pair", "lifelog pair home --name anna-phone", "lifelog pair --list",
        "lifelog pair --revoke anna-phone",
      ])

    /// The server remote `pair` and `share` talk to.
    static let remote = ArgumentSpec(
      "remote", "The server remote (default: the only one).", .optional)
    static let name = OptionSpec(
      ["--name"], value: "name", help: "The new device's name.", default: "phone")
    static let list = OptionSpec(["--list"], help: "List the paired devices instead.")
    static let revoke = OptionSpec(
      ["--revoke"], value: "name", help: "Revoke a paired device's token.")

    let remoteName: String?
    let deviceName: String
    let list: Bool
    let revoke: String?
    let timeout: Int
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      remoteName = try arguments.checkedPositionals(for: Self.configuration).value(Self.remote)
      deviceName = arguments.valueOrDefault(Self.name) ?? ""
      list = arguments.flag(Self.list)
      revoke = arguments.value(Self.revoke)
      timeout = try TimeoutOption.server.seconds(in: arguments)
      json = try arguments.choice(TextOrJSON.option) == .json
      if list, revoke != nil { throw UsageError("Give either --list or --revoke, not both") }
      for name in [deviceName] + (revoke.map { [$0] } ?? []) where !APIPath.isDeviceName(name) {
        throw InputError(
          "Device name '\(name)' must be 1–\(APIPath.maximumDeviceNameLength) letters, digits or '-'"
        )
      }
    }

    func run(in context: Context) throws {
      let record = try Pair.serverRemote(
        named: remoteName, in: SyncStore(log: try context.store))
      let remote = HTTPRemote(
        url: record.url, token: record.token, caFile: context.environment["LIFELOG_CA_FILE"],
        deadline: LogStore.systemMilliseconds() + Int64(timeout) * 1000)
      if list { return try printDevices(try remote.pairedDevices(), context: context) }
      if let revoke {
        guard try remote.revokeDevice(name: revoke) else {
          throw InputError("No device is named '\(revoke)'; see 'lifelog pair --list'")
        }
        context.output.write("Revoked '\(revoke)': its next request is refused\n")
        return
      }
      let pairing = try remote.createPairing(name: deviceName)
      let link = PairingLink.url(server: record.url, code: pairing.code, dataKey: record.dataKey)
      let expires = Share.time(pairing.expires)
      if json {
        var object = JSONObjectWriter()
        object.add("url", link)
        object.add("device", pairing.device)
        object.add("expires", expires)
        context.output.write(object.result + "\n")
        return
      }
      context.output.write(
        "Open this link on the phone within 10 minutes (it works once):\n\n\(link)\n\n")
      context.output.write(try QRCodeText.lines(for: link).joined(separator: "\n") + "\n\n")
      context.output.write(
        "The device will be '\(pairing.device)'; 'lifelog pair --revoke \(pairing.device)' removes it.\n"
      )
    }

    /// The server remote named on the command line, or the only one.
    static func serverRemote(named remoteName: String?, in store: SyncStore) throws -> RemoteRecord
    {
      let servers = try store.remotes().filter { HTTPRemote.handles($0.url) }
      if let remoteName {
        guard let record = servers.first(where: { $0.name == remoteName }) else {
          throw UsageError(
            "No server remote is named '\(remoteName)'; pairing needs an http(s) remote of "
              + "'lifelog serve' (see 'lifelog remote list')")
        }
        return record
      }
      guard servers.count == 1, let only = servers.first else {
        throw UsageError(
          servers.isEmpty
            ? "No server remote; add one with 'lifelog remote add NAME https://…'"
            : "Several server remotes: name one, as in 'lifelog pair \(servers[0].name)'")
      }
      return only
    }

    private func printDevices(_ devices: [DeviceSummary], context: Context) throws {
      func time(_ ms: Int64?) -> String { ms.map(Share.time) ?? "never" }
      ServerListing(json: json, none: "No paired devices; pair one with 'lifelog pair'.").write(
        devices, to: context.output,
        object: { device, object in
          object.add("name", device.name)
          object.add("created", time(device.created))
          object.add("lastUsed", device.lastUsed.map { time($0) })
        },
        line: { device in
          "\(device.name)  paired \(time(device.created))  last used \(time(device.lastUsed))"
        })
    }
  }
}

/// The link that pairs the web app: `<server>/#pair=<code>[&key=<data key in hex>]`.
///
/// Everything secret goes after `#`: browsers send neither the fragment nor (with the app's
/// `Referrer-Policy: no-referrer`) the page's address anywhere.
enum PairingLink {
  static func url(server: String, code: String, dataKey: [UInt8]?) -> String {
    var base = server
    while base.hasSuffix("/") { base.removeLast() }
    let key = dataKey.map { "&key=" + UUIDText.hex($0) } ?? ""
    return base + "/#pair=" + code + key
  }
}
