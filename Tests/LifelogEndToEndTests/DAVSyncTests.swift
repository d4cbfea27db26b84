import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

/// Sync through real WebDAV servers started on 127.0.0.1 with basic authentication (Apache httpd
/// with mod_dav, and `rclone serve webdav`), with the real `lifelog` binary.
@Suite struct DAVSyncTests {
  let folder = TemporaryDirectory(prefix: "lifelog-dav-e2e")

  static let kinds = DAVServer.Kind.allCases.filter(DAVServer.isAvailable)

  /// The account's password in a file, as `--password-file` takes it.
  func passwordFile(_ server: DAVServer, wrong: Bool = false) throws -> String {
    let path = folder.file(wrong ? "wrong-password" : "password")
    try ((wrong ? "not " : "") + server.password + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func passphraseFile() throws -> String {
    let path = folder.file("passphrase")
    try "a long enough passphrase\n".write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// A server with the account's folder `alice/` made, and the remote's address in it.
  func server(_ kind: DAVServer.Kind, bodyLimit: Int? = nil) throws -> (DAVServer, String) {
    let server = try DAVServer(kind, bodyLimit: bodyLimit)
    try server.makeFolder("alice")
    return (server, server.baseURL + "/alice/lifelog")
  }

  func exec(_ machine: SyncMachine, _ arguments: [String]) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: machine.environment)
  }

  func add(
    _ machine: SyncMachine, _ server: DAVServer, _ url: String, _ extra: String...
  ) throws -> CommandResult {
    try exec(
      machine,
      [
        "remote", "add", "cloud", url, "--user", server.user, "--password-file",
        passwordFile(server),
      ]
        + extra)
  }

  @Test(arguments: kinds, [true, false])
  func machinesConvergeThroughWebDAV(_ kind: DAVServer.Kind, encrypted: Bool) throws {
    let (server, url) = try server(kind)
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    let breakfast = try laptop.add("breakfast", "oatmeal", "--at", "2026-12-01 07:30")
    let walk = try laptop.add("walk", "--duration", "30m", "--at", "2026-12-01 17:00")
    let lunch = try desktop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    let encryption = encrypted ? ["--encrypt", "--passphrase-file", try passphraseFile()] : []
    let created = try exec(
      laptop,
      [
        "remote", "add", "cloud", url, "--user", server.user, "--password-file",
        try passwordFile(server),
      ] + (encrypted ? encryption : ["--no-encrypt"]))
    #expect(created.exitCode == 0, "\(created)")
    #expect(
      created.stdout.contains(
        "Created a new \(encrypted ? "encrypted " : "")remote 'cloud' at \(url)"))
    #expect(created.stderr.contains("dav:// sends the password"), "plain HTTP is named: \(created)")
    let joined = try exec(
      desktop,
      [
        "remote", "add", "cloud", url, "--user", server.user, "--password-file",
        try passwordFile(server),
      ] + (encrypted ? ["--passphrase-file", try passphraseFile()] : []))
    #expect(joined.exitCode == 0 && joined.stdout.contains("Joined the"), "\(joined)")
    for output in [created, joined, try laptop.expectSuccess("remote", "list")] {
      #expect(
        !(output.stdout + output.stderr).contains(server.password), "the password is never printed")
    }

    try SyncMachine.convergeAsAUserWould(
      laptop: laptop, desktop: desktop, remote: "cloud", entries: (breakfast, walk, lunch),
      in: folder
    ) { phone in
      let result = try exec(
        phone,
        [
          "remote", "add", "cloud", url, "--user", server.user, "--password-file",
          try passwordFile(server),
        ] + (encrypted ? ["--passphrase-file", try passphraseFile()] : []))
      #expect(result.exitCode == 0, "\(result)")
    }

    // Compaction: a snapshot, and only the compacting device's own batches deleted.
    let devices = Set(
      server.allFiles().filter { $0.hasSuffix(".batch") }.map {
        $0.split(separator: "/")[3]
      })
    #expect(
      devices.count == 2, "laptop and desktop pushed; the phone had nothing: \(server.allFiles())")
    let compacted = try laptop.expectSuccess("sync", "--compact")
    #expect(compacted.stdout.contains("wrote snapshot"), "\(compacted)")
    let after = server.allFiles()
    #expect(
      after.contains { $0.hasPrefix("alice/lifelog/snapshots/") && $0.hasSuffix(".snapshot") })
    let laptopID = try #require(
      compacted.stdout.split(separator: " ").last.map { String($0) }.flatMap { name -> String? in
        // <created>-<device id>-<random>: the device id is the middle.
        let parts = name.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "-")
        return parts.count == 7 ? parts[1...5].joined(separator: "-") : nil
      }, "\(compacted)")
    #expect(!after.contains { $0.contains("devices/\(laptopID)/") && $0.hasSuffix(".batch") })
    #expect(after.filter { $0.hasSuffix(".batch") }.count > 0, "the others' batches stay: \(after)")
    let tablet = SyncMachine("tablet", in: folder)
    let result = try exec(
      tablet,
      [
        "remote", "add", "cloud", url, "--user", server.user, "--password-file",
        try passwordFile(server),
      ] + (encrypted ? ["--passphrase-file", try passphraseFile()] : []))
    #expect(result.exitCode == 0, "\(result)")
    try tablet.syncUntilQuiet()
    #expect(
      try tablet.sortedListLines(deleted: true) == (try laptop.sortedListLines(deleted: true)))
    #expect(try tablet.sortedListLines() == (try desktop.sortedListLines()))

    if encrypted {
      // Every file on the server, not only batches: no note, activity name or duration in clear.
      for file in server.allFiles() {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: server.files + "/" + file))
        let text = String(decoding: bytes, as: UTF8.self)
        for secret in ["oatmeal", "banana", "soup", "breakfast", "lunch", "walk"] {
          #expect(!text.contains(secret), "'\(secret)' in clear in \(file)")
        }
      }
    }
    _ = server
  }

  @Test(arguments: kinds)
  func aWrongPasswordIsRefusedWith77AndNothingIsKept(_ kind: DAVServer.Kind) throws {
    let (server, url) = try server(kind)
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    let refused = try laptop.run(
      "remote", "add", "cloud", url, "--user", server.user, "--password-file",
      try passwordFile(server, wrong: true), "--no-encrypt")
    #expect(refused.exitCode == 77, "\(refused)")
    #expect(refused.stderr.contains("refused the password of user 'alice'"), "\(refused)")
    #expect(!refused.stderr.contains("not " + server.password), "the password is never printed")
    #expect(try laptop.expectSuccess("remote", "list").stdout.contains("No remotes"))
    #expect(server.allFiles().isEmpty, "nothing was written: \(server.allFiles())")

    // The password given on the command line is not an option at all.
    let onCommandLine = try laptop.run(
      "remote", "add", "cloud", url, "--user", server.user, "--password", server.password)
    #expect(onCommandLine.exitCode == 64, "\(onCommandLine)")
    // Neither file nor environment: said what to give.
    let none = try laptop.run("remote", "add", "cloud", url, "--user", server.user)
    #expect(none.exitCode == 65 && none.stderr.contains("LIFELOG_DAV_PASSWORD"), "\(none)")
    #expect(try laptop.expectSuccess("remote", "list").stdout.contains("No remotes"))
    _ = server
  }

  @Test(arguments: kinds)
  func aMissingEmptiedOrReplacedRemoteIsRefusedAndNeverRecreated(_ kind: DAVServer.Kind) throws {
    let (server, url) = try server(kind)
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    #expect(try add(laptop, server, url, "--no-encrypt").exitCode == 0)
    try laptop.expectSuccess("sync")
    let remote = server.files + "/alice/lifelog"
    let away = server.files + "/alice/away"

    try FileManager.default.moveItem(atPath: remote, toPath: away)
    _ = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    let vanished = try laptop.run("sync")
    #expect(vanished.exitCode == 69, "\(vanished)")
    #expect(vanished.stderr.contains(url) && vanished.stderr.contains("lifelog-remote.json"))
    #expect(!FileManager.default.fileExists(atPath: remote), "never made again")

    try server.makeFolder("alice/lifelog")
    let emptied = try laptop.run("sync")
    #expect(emptied.exitCode == 69, "\(emptied)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: remote).isEmpty)
    try FileManager.default.removeItem(atPath: remote)

    // Another remote at the same address.
    let other = SyncMachine("other", in: folder)
    #expect(try add(other, server, url, "--no-encrypt").exitCode == 0)
    let replaced = try laptop.run("sync")
    #expect(replaced.exitCode == 69 && replaced.stderr.contains("different remote"), "\(replaced)")
    try FileManager.default.removeItem(atPath: remote)

    try FileManager.default.moveItem(atPath: away, toPath: remote)
    if kind == .apache, geteuid() == 0 { try server.makeFolder("alice") }  // owner again
    let back = try laptop.expectSuccess("sync")
    #expect(back.stdout.contains("pushed 1"), "\(back)")
    _ = server
  }

  @Test func aQuotaOrUploadLimitIsNamed() throws {
    guard DAVServer.isAvailable(.apache) else { return }
    // Apache's LimitRequestBody answers 413 to a larger PUT: what a hosting account's upload limit
    // does. (Apache's mod_dav_fs has no quota to give 507.)
    let (server, url) = try server(.apache, bodyLimit: 4096)
    let laptop = SyncMachine("laptop", in: folder)
    #expect(try add(laptop, server, url, "--no-encrypt").exitCode == 0)
    _ = try laptop.add(
      "breakfast", String(repeating: "porridge ", count: 900), "--at", "2026-12-01 07:30")
    let full = try laptop.run("sync")
    #expect(full.exitCode == 69, "\(full)")
    #expect(full.stderr.contains("413") && full.stderr.contains("limit"), "\(full)")
    #expect(!server.allFiles().contains { $0.hasSuffix(".batch") })
    _ = server
  }

  /// The server is killed while a sync pushes 20 batches, at whatever point that lands: nothing is
  /// lost, and what a reader merges meanwhile is only whole batches.
  @Test(arguments: kinds)
  func aServerKilledMidPushLosesNothing(_ kind: DAVServer.Kind) throws {
    let (server, url) = try server(kind)
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    #expect(try add(laptop, server, url, "--no-encrypt").exitCode == 0)
    try laptop.expectSuccess("remote", "add", "usb", folder.file("usb"), "--no-encrypt")
    var ids: Set<String> = []
    for minute in 0..<20 {
      // A note of some size, so each PUT takes a moment.
      ids.insert(
        try laptop.add(
          "walk", String(repeating: "a long walk \(minute) ", count: 400), "--at",
          "2026-12-01 17:\(minute < 10 ? "0" : "")\(minute)"))
      try laptop.expectSuccess("sync", "usb")  // one batch each, not yet on the WebDAV server
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: LifelogProcess.binaryPath)
    process.arguments = ["sync", "cloud"]
    process.environment = laptop.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Kill the server once a batch has arrived (or the sync is over).
    while process.isRunning, !server.allFiles().contains(where: { $0.hasSuffix(".batch") }) {
      usleep(1_000)
    }
    server.kill()
    process.waitUntilExit()
    if kind == .apache {
      // Apache writes a PUT to a temporary name and renames it: no half batch is ever visible.
      for file in server.allFiles() where file.hasSuffix(".batch") {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: server.files + "/" + file)))
        #expect(throws: Never.self, "\(file) is whole") { _ = try BatchCodec.decode(bytes) }
      }
    }
    try server.start()
    #expect(try add(desktop, server, url).exitCode == 0)
    // A reader before the writer came back merges only whole batches (a half one, which rclone
    // can leave as it writes in place, is held, never merged).
    _ = try desktop.run("sync")
    #expect(Set(try desktop.entries().keys).isSubset(of: ids))
    try laptop.syncUntilQuiet()
    try desktop.syncUntilQuiet()
    #expect(Set(try desktop.entries().keys) == ids)
    #expect(try desktop.sortedListLines() == (try laptop.sortedListLines()))
    for file in server.allFiles() where file.hasSuffix(".batch") {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: server.files + "/" + file)))
      #expect(throws: Never.self, "\(file) is whole") { _ = try BatchCodec.decode(bytes) }
    }
    _ = server
  }

  /// With Apache, which gives folders ETags: a sync that finds nothing new is a handful of
  /// requests, and a new batch is still seen at once.
  @Test func aNoChangeSyncIsAHandfulOfRequests() throws {
    guard DAVServer.isAvailable(.apache) else { return }
    let (server, url) = try server(.apache)
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    _ = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    _ = try desktop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    #expect(try add(laptop, server, url, "--no-encrypt").exitCode == 0)
    #expect(try add(desktop, server, url).exitCode == 0)
    for machine in [laptop, desktop, laptop] { try machine.syncUntilQuiet() }
    try server.ageFolders()
    try desktop.expectSuccess("sync")  // lists what changed since its markers were taken
    let before = server.requests.count
    let quiet = try desktop.expectSuccess("sync")
    #expect(quiet.stdout.contains("pulled 0 batches, pushed 0"))
    let requests = Array(server.requests.dropFirst(before))
    #expect(requests.count <= 5, "\(requests)")

    _ = try laptop.add("dinner", "rice", "--at", "2026-12-01 19:30")
    try laptop.expectSuccess("sync")
    let pulled = try desktop.expectSuccess("sync")
    #expect(pulled.stdout.contains("pulled 1 batch"), "a changed folder is listed again: \(pulled)")
    #expect(try desktop.sortedListLines() == (try laptop.sortedListLines()))
    _ = server
  }
}
