import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogTestSupport
import Testing

/// The web app's sync core as a device (`node Web/tools/device.mjs`) beside the real `lifelog`
/// binary, through a real `lifelog serve`: pairing from a `lifelog pair` link, revoking, and
/// random edits on both kinds of device ending in one log (docs/web.md).
@Suite struct WebDeviceTests {
  let folder = TemporaryDirectory(prefix: "lifelog-web-e2e")
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// A device of the web app's core over a state folder.
  struct NodeDevice {
    let name: String
    let state: String

    func run(_ arguments: String...) throws -> Subprocess.Output { try run(arguments) }

    func run(_ arguments: [String], now: String? = nil) throws -> Subprocess.Output {
      let tool = WebDeviceTests.repository.appendingPathComponent("Web/tools/device.mjs").path
      return try Subprocess.run(
        "node", [tool, "--state", state] + arguments,
        environment: [
          "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
          "TZ": "Europe/Warsaw",
        ].merging(now.map { ["LIFELOG_NOW": $0] } ?? [:]) { $1 })
    }

    @discardableResult
    func expectSuccess(
      _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Subprocess.Output {
      let output = try run(arguments)
      #expect(
        output.status == 0, "\(name): \(arguments) \(output.stdout) \(output.stderr)",
        sourceLocation: sourceLocation)
      return output
    }
  }

  /// A machine with a log joined to the server as `alice` (encrypted: with the passphrase).
  func machine(
    _ name: String, server: ServerProcess, tokenPath: String, encrypted: Bool = false
  ) throws -> SyncMachine {
    let machine = SyncMachine(name, in: folder)
    if encrypted {
      let passphrase = folder.file("passphrase")
      try Data("correct horse battery staple\n".utf8).write(to: URL(fileURLWithPath: passphrase))
      try machine.expectSuccess(
        "remote", "add", "home", server.baseURL, "--token-file", tokenPath, "--encrypt",
        "--passphrase-file", passphrase)
    } else {
      try machine.expectSuccess(
        "remote", "add", "home", server.baseURL, "--token-file", tokenPath, "--no-encrypt")
    }
    return machine
  }

  func tokenFile(_ server: ServerProcess) throws -> String {
    let path = folder.file("alice.token")
    try Data((try server.addUser("alice") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A device paired with a fresh `lifelog pair` link from `machine`.
  func pairedDevice(_ name: String, from machine: SyncMachine) throws -> NodeDevice {
    let paired = try machine.expectSuccess("pair", "--name", name, "--format", "json")
    let object = try JSONSerialization.jsonObject(with: Data(paired.stdout.utf8)) as? [String: Any]
    let link = try #require(object?["url"] as? String)
    let device = NodeDevice(name: name, state: folder.file("node-" + name))
    try device.expectSuccess("pair", link)
    return device
  }

  @Test func aPairingLinkCarriesItsSecretOnlyInTheFragmentAndWorksOnce() throws {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    let laptop = try machine("laptop", server: server, tokenPath: try tokenFile(server))
    let json = try laptop.expectSuccess("pair", "--name", "anna-phone", "--format", "json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["url", "device", "expires"])
    #expect(object["device"] as? String == "anna-phone")
    let link = try #require(object["url"] as? String)
    #expect(link.hasPrefix(server.baseURL + "/#pair=llp_"), "\(link)")
    #expect(!link.contains("?"))

    let text = try laptop.expectSuccess("pair", "--name", "tablet")
    #expect(text.stdout.contains(server.baseURL + "/#pair=llp_"))
    #expect(text.stdout.contains("█"), "a QR code in the terminal")

    let phone = NodeDevice(name: "anna-phone", state: folder.file("phone"))
    try phone.expectSuccess("pair", link)
    let again = try NodeDevice(name: "thief", state: folder.file("thief")).run("pair", link)
    #expect(again.status != 0 && again.stderr.contains("unknown, used already or expired"))

    try laptop.add("breakfast", "eggs")
    try laptop.expectSuccess("sync")
    try phone.expectSuccess("sync")
    let list = try phone.expectSuccess("list", "--format", "json")
    #expect(list.stdout.contains("\"note\":\"eggs\""), "\(list.stdout)")

    let devices = try laptop.expectSuccess("pair", "--list")
    #expect(devices.stdout.hasPrefix("anna-phone  paired "), "\(devices)")
    #expect(!devices.stdout.contains("last used never"), "\(devices)")
    try laptop.expectSuccess("pair", "--revoke", "anna-phone")
    let refused = try phone.run("sync")
    #expect(refused.status == 77, "\(refused.stderr)")
    #expect(try laptop.run("pair", "--revoke", "anna-phone").exitCode == 65)
  }

  /// Two CLI machines and two web-core devices end with the same entries.
  ///
  /// They make random adds, edits, deletes and syncs (seed printed), then sync until quiet.
  /// Encrypted, the web core
  /// seals and opens in WebAssembly, and the server's files hold no note in plaintext.
  @Test(arguments: [false, true]) func cliAndWebDevicesConverge(encrypted: Bool) throws {
    let seed = UInt64(ProcessInfo.processInfo.environment["LIFELOG_WEB_SEED"] ?? "") ?? 2025
    print(
      "WebDeviceTests.cliAndWebDevicesConverge encrypted \(encrypted) seed \(seed) (LIFELOG_WEB_SEED)"
    )
    var random = SplitMix64(seed: seed)
    let server = try ServerProcess(dataFolder: folder.file("data"))
    let tokenPath = try tokenFile(server)
    let laptop = try machine("laptop", server: server, tokenPath: tokenPath, encrypted: encrypted)
    let desktop = try machine(
      "desktop", server: server, tokenPath: tokenPath, encrypted: encrypted)
    let phones = [
      try pairedDevice("phone-1", from: laptop), try pairedDevice("phone-2", from: laptop),
    ]
    let activities = ["breakfast", "lunch", "dinner", "snack", "walk"]
    for step in 0..<40 {
      let note = "secret-note-\(step)"
      let activity = activities[Int(random.next() % UInt64(activities.count))]
      let pick = Int(random.next() % 4)
      let operation = Int(random.next() % 10)
      if pick < 2 {
        let cli = pick == 0 ? laptop : desktop
        let ids = try Self.ids(
          try cli.expectSuccess("list", "--format", "json", "--limit", "1000").stdout)
        let target = ids.isEmpty ? nil : ids[Int(random.next() % UInt64(ids.count))]
        switch (operation, target) {
        case (0..<4, _), (_, nil): try cli.expectSuccess("add", activity, note)
        case (4..<6, let id?): try cli.expectSuccess("edit", id, "--note", note)
        case (6, let id?): try cli.expectSuccess("delete", id)
        default: try cli.expectSuccess("sync")
        }
      } else {
        let phone = phones[pick - 2]
        let ids = try Self.ids(try phone.expectSuccess("list", "--format", "json").stdout)
        let target = ids.isEmpty ? nil : ids[Int(random.next() % UInt64(ids.count))]
        switch (operation, target) {
        case (0..<4, _), (_, nil): try phone.expectSuccess("add", activity, note)
        case (4..<6, let id?): try phone.expectSuccess("edit", id, "--note", note)
        case (6, let id?): try phone.expectSuccess("delete", id)
        default: try phone.expectSuccess("sync")
        }
      }
    }
    for _ in 0..<2 {
      for cli in [laptop, desktop] { try cli.expectSuccess("sync") }
      for phone in phones { try phone.expectSuccess("sync") }
    }
    let reference = try Self.entries(
      try laptop.expectSuccess("list", "--format", "json", "--limit", "1000").stdout)
    #expect(reference.count > 5, "seed \(seed)")
    #expect(
      try Self.entries(
        try desktop.expectSuccess("list", "--format", "json", "--limit", "1000").stdout)
        == reference, "seed \(seed)")
    for phone in phones {
      #expect(
        try Self.entries(try phone.expectSuccess("list", "--format", "json").stdout) == reference,
        "\(phone.name), seed \(seed)")
    }
    if encrypted {
      let stored = try FileManager.default.contentsOfDirectory(atPath: folder.file("data"))
        .map { try Data(contentsOf: URL(fileURLWithPath: folder.file("data") + "/" + $0)) }
      #expect(!stored.isEmpty)
      for data in stored {
        #expect(data.range(of: Data("secret-note-".utf8)) == nil, "plaintext on the server")
        #expect(data.range(of: Data("breakfast".utf8)) == nil, "plaintext on the server")
      }
    }
    // The page's countdown: the numbers of `lifelog due`, later today and on a later day.
    for now in [Self.inAnHour(), "2099-01-01T12:00:00+01:00"] {
      let cli = try LifelogProcess.run(
        ["due", "--format", "json"],
        environment: laptop.environment.merging(["LIFELOG_NOW": now]) { $1 })
      let web = try phones[0].run(["due"], now: now)
      #expect(cli.exitCode == 0 && web.status == 0, "\(cli) \(web.stderr)")
      #expect(
        try Self.object(web.stdout) == Self.object(cli.stdout),
        "\(now): \(web.stdout) \(cli.stdout)")
    }
  }

  /// An hour from now in Warsaw, as LIFELOG_NOW takes it.
  static func inAnHour() -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "Europe/Warsaw")
    formatter.formatOptions = [.withInternetDateTime, .withColonSeparatorInTimeZone]
    return formatter.string(from: Date().addingTimeInterval(3600))
  }

  /// A JSON object in one spelling.
  static func object(_ json: String) throws -> String {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
    return String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
      as: UTF8.self)
  }

  /// The entries of `list --format json`, by id, each in one spelling.
  static func entries(_ json: String) throws -> [String] {
    let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
    return
      try list.map { entry in
        String(
          decoding: try JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys]),
          as: UTF8.self)
      }.sorted()
  }

  static func ids(_ json: String) throws -> [String] {
    let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
    return list.compactMap { $0["id"] as? String }.sorted()
  }
}
