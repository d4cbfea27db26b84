import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// End-to-end encryption with the real `lifelog` binary (docs/security.md): the remote folder and
/// the server hold no plaintext, tampering is refused, a wrong passphrase changes nothing, and
/// passphrase changes and the recovery key work across machines.
///
/// Argon2id runs with the real parameters (libsodium's interactive limits) in every test.
@Suite struct EncryptedRemoteTests {
  let folder = TemporaryDirectory(prefix: "lifelog-crypto-e2e")
  /// A note no part of lifelog would ever write by itself.
  static let secretNote = "Kohlrabi-and-quince-7D1F"

  /// Writes `text` to a file in the test's folder and returns its path.
  func file(_ name: String, _ text: String) throws -> String {
    let path = folder.file(name)
    try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Every file under `root`, with its bytes.
  static func files(under root: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let relative = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let path = root + "/" + relative
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        result[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
      }
    }
    return result
  }

  /// The recovery key `remote add --encrypt` printed.
  static func recoveryKey(in output: String) throws -> String {
    let line = output.split(separator: "\n").first { $0.hasPrefix("    ") && $0.contains("-") }
    return try #require(line.map { $0.trimmingCharacters(in: .whitespaces) }, "\(output)")
  }

  /// A machine that created an encrypted folder remote and pushed the secret note in one batch.
  func laptopWithEncryptedRemote() throws -> (
    SyncMachine, remote: String, passphrase: String, recovery: String
  ) {
    let laptop = SyncMachine("laptop", in: folder)
    let remote = folder.file("remote")
    let passphrase = try file("passphrase", "correct horse battery staple")
    let created = try laptop.expectSuccess(
      "remote", "add", "usb", remote, "--encrypt", "--passphrase-file", passphrase)
    #expect(created.stdout.hasPrefix("Created a new encrypted remote 'usb'"), "\(created)")
    _ = try laptop.add("snack", EncryptedRemoteTests.secretNote, "--at", "2026-12-01 10:00")
    try laptop.expectSuccess("sync")
    return (laptop, remote, passphrase, try EncryptedRemoteTests.recoveryKey(in: created.stdout))
  }

  // MARK: - What the remote sees

  @Test func theRemoteFolderHoldsNoPlaintextAndAJoiningMachineReadsIt() throws {
    let (laptop, remote, passphrase, _) = try laptopWithEncryptedRemote()
    try laptop.expectSuccess("sync", "--compact")  // a snapshot too
    let files = try EncryptedRemoteTests.files(under: remote)
    #expect(files.keys.contains { $0.hasPrefix("snapshots/") }, "\(files.keys)")
    #expect(files.keys.contains { $0.hasPrefix("keys/") }, "\(files.keys)")
    let manifest = String(decoding: try #require(files["lifelog-remote.json"]), as: UTF8.self)
    #expect(
      manifest.contains("\"minVersion\":\"0.3.0\""), "0.2.0 would write plain batches: \(manifest)")
    for (name, bytes) in files {
      #expect(
        bytes.range(of: Data(EncryptedRemoteTests.secretNote.utf8)) == nil,
        "\(name) holds the note in clear")
      #expect(bytes.range(of: Data("snack".utf8)) == nil, "\(name) names the activity in clear")
    }

    let desktop = SyncMachine("desktop", in: folder)
    let joined = try desktop.expectSuccess(
      "remote", "add", "usb", remote, "--passphrase-file", passphrase)
    #expect(joined.stdout.hasPrefix("Joined the encrypted remote 'usb'"), "\(joined)")
    try desktop.syncUntilQuiet()
    #expect(try desktop.sortedListLines() == (try laptop.sortedListLines()))
    #expect(try desktop.expectSuccess("remote", "list").stdout.contains("usb (encrypted)"))
  }

  @Test func machinesConvergeThroughAnEncryptedFolderAsAUserWouldSeeIt() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    let breakfast = try laptop.add("breakfast", "oatmeal", "--at", "2026-12-01 07:30")
    let walk = try laptop.add("walk", "--duration", "30m", "--at", "2026-12-01 17:00")
    let lunch = try desktop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    let remote = folder.file("remote")
    let passphrase = try file("passphrase", "correct horse battery staple")
    try laptop.expectSuccess(
      "remote", "add", "usb", remote, "--encrypt", "--passphrase-file", passphrase)
    try desktop.expectSuccess("remote", "add", "usb", remote, "--passphrase-file", passphrase)
    try SyncMachine.convergeAsAUserWould(
      laptop: laptop, desktop: desktop, remote: "usb", entries: (breakfast, walk, lunch), in: folder
    ) { phone in
      try phone.expectSuccess("remote", "add", "usb", remote, "--passphrase-file", passphrase)
    }
    for (name, bytes) in try EncryptedRemoteTests.files(under: remote) {
      #expect(bytes.range(of: Data("oatmeal".utf8)) == nil, "\(name) holds a note in clear")
    }
  }

  @Test func theServerStoresOnlyCiphertext() throws {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    let token = try file("token", try server.addUser("alice"))
    let passphrase = try file("passphrase", "a passphrase for the server")
    let laptop = SyncMachine("laptop", in: folder)
    let created = try laptop.expectSuccess(
      "remote", "add", "home", server.baseURL, "--token-file", token, "--encrypt",
      "--passphrase-file", passphrase)
    #expect(created.stdout.hasPrefix("Created a new encrypted remote 'home'"), "\(created)")
    _ = try laptop.add("snack", EncryptedRemoteTests.secretNote)
    try laptop.expectSuccess("sync")
    try laptop.expectSuccess("sync", "--compact")

    let desktop = SyncMachine("desktop", in: folder)
    let wrong = try LifelogProcess.run(
      ["remote", "add", "home", server.baseURL, "--token-file", token],
      environment: desktop.environment.merging(["LIFELOG_PASSPHRASE": "not it"]) { $1 })
    #expect(wrong.exitCode == 77, "\(wrong)")
    try desktop.expectSuccess(
      "remote", "add", "home", server.baseURL, "--token-file", token, "--passphrase-file",
      passphrase)
    try desktop.syncUntilQuiet()
    #expect(try desktop.sortedListLines() == (try laptop.sortedListLines()))

    // A passphrase change goes to the server as the next key envelope version.
    let newPassphrase = try file("new-passphrase", "the server's new passphrase")
    let changed = try laptop.expectSuccess(
      "remote", "passwd", "home", "--passphrase-file", newPassphrase)
    #expect(changed.stdout.contains("key version 2"), "\(changed)")
    let third = SyncMachine("third", in: folder)
    #expect(
      try third.run(
        "remote", "add", "home", server.baseURL, "--token-file", token, "--passphrase-file",
        passphrase
      ).exitCode == 77)
    try third.expectSuccess(
      "remote", "add", "home", server.baseURL, "--token-file", token, "--passphrase-file",
      newPassphrase)
    try third.syncUntilQuiet()
    #expect(try third.sortedListLines() == (try laptop.sortedListLines()))

    #expect(server.terminate() == 0, "\(server.log)")
    let stored = try EncryptedRemoteTests.files(under: folder.file("data"))
    #expect(stored.keys.contains("server.db"), "\(stored.keys)")
    for (name, bytes) in stored {
      #expect(
        bytes.range(of: Data(EncryptedRemoteTests.secretNote.utf8)) == nil,
        "\(name) holds the note in clear")
    }
  }

  // MARK: - Tampering

  /// A second machine joins a copy of the remote in which `tamper` changed the batch files, and
  /// syncs: what it warns about and which notes it ends up with.
  func syncAfterTampering(
    _ label: String, _ tamper: (_ batches: [String]) throws -> Void
  ) throws -> (warnings: String, notes: Set<String>) {
    let (laptop, remote, passphrase, _) = try laptopWithEncryptedRemote()
    for note in ["second", "third"] {
      _ = try laptop.add("snack", note, "--at", "2026-12-01 11:00")
      try laptop.expectSuccess("sync")
    }
    let copy = folder.file("copy-\(label)")
    try FileManager.default.copyItem(atPath: remote, toPath: copy)
    let device = try #require(
      try FileManager.default.contentsOfDirectory(atPath: copy + "/devices").first)
    let batches = try FileManager.default.contentsOfDirectory(atPath: copy + "/devices/" + device)
      .sorted()
      .map { copy + "/devices/" + device + "/" + $0 }
    #expect(batches.count == 3)
    try tamper(batches)
    let reader = SyncMachine("reader-\(label)", in: folder)
    try reader.expectSuccess("remote", "add", "usb", copy, "--passphrase-file", passphrase)
    let synced = try reader.expectSuccess("sync")
    let notes = Set(try reader.entries().values.compactMap { $0["note"] as? String })
    return (synced.stderr, notes)
  }

  @Test func aFlippedByteIsRejectedAndNothingAfterItApplied() throws {
    let (warnings, notes) = try syncAfterTampering("flip") { batches in
      var bytes = try Data(contentsOf: URL(fileURLWithPath: batches[1]))
      let ciphertext = try #require(bytes.firstIndex(of: 0x0A)) + 40
      bytes[ciphertext] ^= 0x01
      try bytes.write(to: URL(fileURLWithPath: batches[1]))
    }
    #expect(
      warnings.contains("Warning: skipped") && warnings.contains("fails authentication"),
      "\(warnings)")
    #expect(notes == [EncryptedRemoteTests.secretNote])
  }

  @Test func aSwappedPairOfBatchesIsRejected() throws {
    let (warnings, notes) = try syncAfterTampering("swap") { batches in
      let first = try Data(contentsOf: URL(fileURLWithPath: batches[0]))
      let second = try Data(contentsOf: URL(fileURLWithPath: batches[1]))
      try second.write(to: URL(fileURLWithPath: batches[0]))
      try first.write(to: URL(fileURLWithPath: batches[1]))
    }
    #expect(
      warnings.contains("Warning: skipped") && warnings.contains("not this file"), "\(warnings)")
    #expect(notes.isEmpty, "\(notes)")
  }

  @Test func aBatchCopiedUnderAnotherNameIsRejected() throws {
    let (warnings, notes) = try syncAfterTampering("copy") { batches in
      try FileManager.default.copyItem(
        atPath: batches[0],
        toPath: batches[0].replacingOccurrences(of: "0000000001.batch", with: "0000000004.batch"))
    }
    #expect(
      warnings.contains("Warning: skipped") && warnings.contains("not this file"), "\(warnings)")
    #expect(notes == [EncryptedRemoteTests.secretNote, "second", "third"])
  }

  @Test func aTamperedSnapshotIsSkippedWithAWarning() throws {
    let (laptop, remote, passphrase, _) = try laptopWithEncryptedRemote()
    try laptop.expectSuccess("sync", "--compact")  // the snapshot replaces the batch
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: remote + "/snapshots").first)
    let path = remote + "/snapshots/" + name
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes[try #require(bytes.firstIndex(of: 0x0A)) + 100] ^= 0x01
    try bytes.write(to: URL(fileURLWithPath: path))

    let reader = SyncMachine("reader", in: folder)
    try reader.expectSuccess("remote", "add", "usb", remote, "--passphrase-file", passphrase)
    let synced = try reader.expectSuccess("sync")
    #expect(
      synced.stderr.contains("snapshots/\(name)") && synced.stderr.contains("fails authentication"),
      "\(synced)")
    #expect(try reader.entries().isEmpty)
    #expect(try reader.expectSuccess("status").stdout.contains("fails authentication"))
  }

  @Test func aForgedSnapshotOnTheServerIsSkippedWithAWarningAndNothingIsPassedOver() throws {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    let tokenText = try server.addUser("alice")
    let token = try file("token", tokenText)
    let passphrase = try file("passphrase", "a passphrase for the server")
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess(
      "remote", "add", "home", server.baseURL, "--token-file", token, "--encrypt",
      "--passphrase-file", passphrase)
    _ = try laptop.add("snack", EncryptedRemoteTests.secretNote)
    try laptop.expectSuccess("sync")
    try laptop.expectSuccess("sync", "--compact")  // a snapshot; the batch it covers is compacted

    // Someone holding the token (not the key) stores the sealed snapshot again under another
    // name: its sealed header still names the original, so it cannot open under the new one.
    let attacker = HTTPTestClient(baseURL: server.baseURL, token: tokenText)
    let real = try attacker.get("/v1/snapshots/latest")
    #expect(real.status == 200)
    let forged = "9999999999999-forged"
    #expect(try attacker.put("/v1/snapshots/\(forged)", real.body).status == 201)

    let reader = SyncMachine("reader", in: folder)
    try reader.expectSuccess(
      "remote", "add", "home", server.baseURL, "--token-file", token, "--passphrase-file",
      passphrase)
    let synced = try reader.expectSuccess("sync")
    #expect(synced.stderr.contains("snapshot \(forged)"), "\(synced)")
    #expect(
      synced.stderr.contains("not merged yet"), "the compacted batch is not passed over: \(synced)")
    #expect(try reader.entries().isEmpty, "nothing from the forged snapshot is applied")
    #expect(server.terminate() == 0, "\(server.log)")
  }

  @Test func aFolderWhoseManifestLostItsEncryptionMarkIsNotJoinedInClear() throws {
    let (_, remote, _, _) = try laptopWithEncryptedRemote()
    let manifestPath = remote + "/lifelog-remote.json"
    let manifest = try String(contentsOfFile: manifestPath, encoding: .utf8)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any])
    let stripped = object.filter { $0.key != "encryption" && $0.key != "encrypted" }
    #expect(stripped.count < object.count, "\(manifest)")
    try JSONSerialization.data(withJSONObject: stripped).write(
      to: URL(fileURLWithPath: manifestPath))
    let before = try EncryptedRemoteTests.files(under: remote)

    let newcomer = SyncMachine("newcomer", in: folder)
    _ = try newcomer.add("snack", "a note that must not leak")
    let joined = try newcomer.run("remote", "add", "usb", remote)
    #expect(joined.exitCode == 78, "\(joined)")
    #expect(joined.stderr.contains("tampered"), "\(joined)")
    #expect(
      try EncryptedRemoteTests.files(under: remote) == before, "nothing was written to the remote")
  }

  // MARK: - Passphrases

  @Test func atATerminalRemoteAddAsksToEncryptAndReadsThePassphraseWithoutEcho() throws {
    try #require(Subprocess.exists("tmux"), "tmux is needed (make test installs it)")
    let laptop = SyncMachine("laptop", in: folder)
    let remote = folder.file("remote")
    let passphrase = "typed at the terminal 42"
    var environment = laptop.environment
    environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    // Through sh, so the screen stays (with the exit code) after lifelog ends.
    let terminal = try TerminalSession(
      [
        "/bin/sh", "-c", "\"$0\" \"$@\"; echo \"exit=$?\"; sleep 60", LifelogProcess.binaryPath,
        "remote", "add", "usb", remote,
      ],
      environment: environment, folder: folder)
    try terminal.waitFor("end to end, so the remote never sees your entries? [Y/n]")
    try terminal.press("Enter")  // the default: encrypt
    // Typed only once the question shows, as a person would: what is typed before echo goes off
    // is dropped (TCSAFLUSH), and the program asks only once it is off.
    try terminal.waitFor("New passphrase for 'usb':")
    try terminal.enter(passphrase, expecting: "The same passphrase again:")
    try terminal.enter(passphrase, expecting: "Recovery key for 'usb'")
    let screen = try terminal.waitFor("exit=0")
    #expect(screen.contains("Created a new encrypted remote 'usb'"), "\(screen)")
    #expect(!screen.contains(passphrase), "the passphrase was echoed:\n\(screen)")
    let manifest = try String(contentsOfFile: remote + "/lifelog-remote.json", encoding: .utf8)
    #expect(manifest.contains("\"minVersion\":\"0.3.0\""), "\(manifest)")
    let passphraseFile = try file("typed-passphrase", passphrase)
    let reader = SyncMachine("reader", in: folder)
    try reader.expectSuccess("remote", "add", "usb", remote, "--passphrase-file", passphraseFile)
  }

  @Test func aWrongPassphraseExits77AndWritesNothing() throws {
    let (_, remote, _, _) = try laptopWithEncryptedRemote()
    let before = try EncryptedRemoteTests.files(under: remote)
    let desktop = SyncMachine("desktop", in: folder)
    try desktop.expectSuccess("status")
    let listed = try desktop.expectSuccess("remote", "list", "--format", "json").stdout
    let wrong = try LifelogProcess.run(
      ["remote", "add", "usb", remote],
      environment: desktop.environment.merging(["LIFELOG_PASSPHRASE": "incorrect horse"]) { $1 })
    #expect(wrong.exitCode == 77, "\(wrong)")
    #expect(wrong.stderr.contains("The passphrase does not open the keys"), "\(wrong)")
    #expect(try EncryptedRemoteTests.files(under: remote) == before)
    #expect(try desktop.expectSuccess("remote", "list", "--format", "json").stdout == listed)
    // No terminal and no passphrase: a clear error, not a prompt.
    let none = try desktop.run("remote", "add", "usb", remote)
    #expect(none.exitCode == 78 && none.stderr.contains("--passphrase-file"), "\(none)")
    // A plain remote joined with --encrypt, an encrypted one with --no-encrypt.
    let plain = folder.file("plain")
    try desktop.expectSuccess("remote", "add", "plain", plain, "--no-encrypt")
    #expect(try desktop.run("remote", "add", "plain2", plain, "--encrypt").exitCode == 78)
    #expect(try desktop.run("remote", "add", "usb", remote, "--no-encrypt").exitCode == 78)
  }

  @Test func aChangedPassphraseLetsAThirdMachineJoinAndTheRecoveryKeyStillWorks() throws {
    let (laptop, remote, oldPassphrase, recovery) = try laptopWithEncryptedRemote()
    let newPassphrase = try file("new-passphrase", "a brand new passphrase")
    let changed = try laptop.expectSuccess(
      "remote", "passwd", "usb", "--passphrase-file", newPassphrase)
    #expect(changed.stdout.contains("key version 2"), "\(changed)")
    try laptop.expectSuccess("sync")  // the machine that changed it goes on syncing

    let third = SyncMachine("third", in: folder)
    let old = try third.run("remote", "add", "usb", remote, "--passphrase-file", oldPassphrase)
    #expect(old.exitCode == 77, "\(old)")
    try third.expectSuccess("remote", "add", "usb", remote, "--passphrase-file", newPassphrase)
    try third.syncUntilQuiet()
    #expect(
      Set(try third.entries().values.compactMap { $0["note"] as? String }) == [
        EncryptedRemoteTests.secretNote
      ])

    let lost = SyncMachine("lost", in: folder)
    let recoveryFile = try file("recovery", recovery)
    let recovered = try lost.expectSuccess(
      "remote", "recover", "usb", remote, "--recovery-key-file", recoveryFile)
    #expect(recovered.stdout.contains("with the recovery key"), "\(recovered)")
    try lost.syncUntilQuiet()
    #expect(try lost.sortedListLines() == (try third.sortedListLines()))
    let badRecovery = try file("bad-recovery", String(repeating: "ab", count: 32))
    #expect(
      try SyncMachine("other", in: folder).run(
        "remote", "recover", "usb", remote, "--recovery-key-file", badRecovery
      ).exitCode == 77)
  }
}
