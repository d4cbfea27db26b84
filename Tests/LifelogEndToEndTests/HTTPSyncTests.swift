import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogCore
import LifelogTestSupport
import Testing

/// Sync through a real `lifelog serve` on 127.0.0.1 with the real `lifelog` binary on both ends,
/// the way people use it: machines with their own logs, a server started and stopped by each
/// test, tokens made with `lifelog serve user add`.
@Suite struct HTTPSyncTests {
  let folder = TemporaryDirectory(prefix: "lifelog-http-e2e")

  /// Starts a server whose data lives in this test's folder.
  func startServer(_ arguments: [String] = [], port: Int = 0) throws -> ServerProcess {
    try ServerProcess(dataFolder: folder.file("data"), port: port, arguments: arguments)
  }

  /// Writes `token` to a file, as its operator would hand it over, and returns the path.
  func tokenFile(_ token: String, _ name: String) throws -> String {
    let path = folder.file(name + ".token")
    try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  // MARK: - As a user would

  @Test func machinesConvergeThroughLifelogServeAsAUserWouldSeeIt() throws {
    let server = try startServer()
    let token = try server.addUser("alice")
    let tokenPath = try tokenFile(token, "alice")
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)

    // Entries made before the remote existed.
    let breakfast = try laptop.add("breakfast", "oatmeal", "--at", "2026-12-01 07:30")
    let walk = try laptop.add("walk", "--duration", "30m", "--at", "2026-12-01 17:00")
    let lunch = try desktop.add("lunch", "soup", "--at", "2026-12-01 12:30")

    let joined = try laptop.expectSuccess(
      "remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    #expect(
      joined.stdout
        == "Joined the remote 'home' at \(server.baseURL); run 'lifelog sync' to sync with it\n",
      "\(joined)")
    // The token may come from LIFELOG_TOKEN instead of a file.
    let fromEnvironment = try LifelogProcess.run(
      ["remote", "add", "home", server.baseURL],
      environment: desktop.environment.merging(["LIFELOG_TOKEN": token]) { $1 })
    #expect(fromEnvironment.exitCode == 0, "\(fromEnvironment)")

    let phone = try SyncMachine.convergeAsAUserWould(
      laptop: laptop, desktop: desktop, remote: "home", entries: (breakfast, walk, lunch),
      in: folder
    ) { phone in
      try phone.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    }

    // The token is kept in the owner-only log and never printed.
    for arguments in [
      ["remote", "list"], ["remote", "list", "--format", "json"], ["status"],
      ["status", "--format", "json"],
    ] {
      let result = try LifelogProcess.run(arguments, environment: phone.environment)
      #expect(result.exitCode == 0 && result.stdout.contains(server.baseURL), "\(result)")
      #expect(
        !result.stdout.contains(token) && !result.stderr.contains(token),
        "\(arguments) printed the token")
    }
    var info = stat()
    #expect(
      stat(phone.databasePath, &info) == 0 && info.st_mode & 0o077 == 0,
      "the log is readable by others")
    let status = try phone.expectSuccess("status")
    #expect(status.stdout.contains("Remote 'home': \(server.baseURL)\n  Last sync: "), "\(status)")
    #expect(status.stdout.contains("(ok)\n  Unsent batches: 0\n"), "\(status)")
  }

  // MARK: - Tokens and users

  @Test func aRefusedTokenExits77SaysHowToGetANewOneAndChangesNothing() throws {
    let server = try startServer()
    let oldToken = try server.addUser("alice")
    let laptop = SyncMachine("laptop", in: folder)
    let phone = SyncMachine("phone", in: folder)
    _ = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess(
      "remote", "add", "home", server.baseURL, "--token-file", try tokenFile(oldToken, "old"))
    try laptop.expectSuccess("sync")

    // The operator gives alice a new token; her phone joins with it and pushes an entry.
    let rotated = try LifelogProcess.run(
      ["serve", "user", "token", "alice"] + server.storeArguments)
    #expect(rotated.exitCode == 0, "\(rotated)")
    let newToken = rotated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let newTokenPath = try tokenFile(newToken, "new")
    let fromPhone = try phone.add("lunch", "from the phone", "--at", "2026-12-01 12:30")
    try phone.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", newTokenPath)
    try phone.expectSuccess("sync")

    // The laptop still has the old one: 77, a message that says what to do, nothing merged or sent.
    _ = try laptop.add("dinner", "pasta", "--at", "2026-12-01 19:00")
    let before = try laptop.sortedListLines(deleted: true)
    let statusBefore = try laptop.expectSuccess("status").stdout
    let refused = try laptop.run("sync")
    #expect(refused.exitCode == 77, "\(refused)")
    #expect(refused.stdout.isEmpty, "\(refused)")
    #expect(refused.stderr.hasPrefix("Error: "), "\(refused)")
    #expect(refused.stderr.contains("refused the token"), "\(refused)")
    #expect(
      refused.stderr.contains("lifelog serve user token"), "says how to get a new token: \(refused)"
    )
    #expect(refused.stderr.contains("lifelog remote add"), "says how to use it: \(refused)")
    #expect(!refused.stderr.contains(oldToken), "the token was printed")
    #expect(try laptop.sortedListLines(deleted: true) == before, "the refused sync changed the log")
    #expect(try laptop.entries()[fromPhone] == nil)
    let statusAfter = try laptop.expectSuccess("status").stdout
    for prefix in ["Pending: ", "  Unsent batches: "] {
      let line = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix(prefix) } }
      #expect(
        line(statusAfter) != nil && line(statusAfter) == line(statusBefore),
        "\(statusBefore)\n\(statusAfter)")
    }
    #expect(statusAfter.contains("(failed: "), "\(statusAfter)")
    let quiet = try laptop.run("sync", "--quiet")
    #expect(
      quiet.exitCode == 77 && quiet.stderr.contains("refused the token"),
      "--quiet still reports it: \(quiet)")

    // A wrong token is refused when the remote is added, and no remote is kept.
    let desktop = SyncMachine("desktop", in: folder)
    let wrong = try desktop.run(
      "remote", "add", "home", server.baseURL, "--token-file",
      try tokenFile("llt_" + String(repeating: "0", count: 64), "wrong"))
    #expect(wrong.exitCode == 77 && wrong.stderr.contains("refused the token"), "\(wrong)")
    #expect(try desktop.expectSuccess("remote", "list").stdout.contains("No remotes"))

    // With the new token the laptop goes on: both machines end with both entries.
    try laptop.expectSuccess("remote", "remove", "home")
    try laptop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", newTokenPath)
    try laptop.syncUntilQuiet()
    try phone.syncUntilQuiet()
    #expect(try laptop.entries()[fromPhone] != nil)
    #expect(try laptop.sortedListLines() == (try phone.sortedListLines()))
    #expect(try laptop.entries().count == 3)
  }

  @Test func oneUsersMachinesNeverSeeAnotherUsersEntries() throws {
    let server = try startServer()
    let aliceToken = try tokenFile(try server.addUser("alice"), "alice")
    let bobToken = try tokenFile(try server.addUser("bob"), "bob")
    let aliceLaptop = SyncMachine("alice-laptop", in: folder)
    let alicePhone = SyncMachine("alice-phone", in: folder)
    let bobLaptop = SyncMachine("bob-laptop", in: folder)
    var alices: Set<String> = [
      try aliceLaptop.add("breakfast", "alice's oatmeal", "--at", "2026-12-01 07:30"),
      try alicePhone.add("run", "--duration", "40m", "--at", "2026-12-01 18:00"),
    ]
    var bobs: Set<String> = [try bobLaptop.add("lunch", "bob's burger", "--at", "2026-12-01 12:30")]
    bobs.formUnion(try bobLaptop.addBacklog(200, label: "bob backlog"))
    for (machine, token) in [
      (aliceLaptop, aliceToken), (alicePhone, aliceToken), (bobLaptop, bobToken),
    ] {
      try machine.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", token)
    }
    for _ in 0..<2 {
      for machine in [aliceLaptop, bobLaptop, alicePhone] { try machine.syncUntilQuiet() }
    }
    // Both users sync again after more entries on each side; still nothing crosses over.
    alices.insert(try alicePhone.add("dinner", "alice's soup", "--at", "2026-12-01 19:00"))
    bobs.insert(try bobLaptop.add("dinner", "bob's pizza", "--at", "2026-12-01 19:30"))
    for machine in [bobLaptop, alicePhone, aliceLaptop, bobLaptop] { try machine.syncUntilQuiet() }

    for machine in [aliceLaptop, alicePhone] {
      #expect(
        Set(try machine.entries().keys) == alices, "\(machine.name) sees another user's entries")
    }
    #expect(Set(try bobLaptop.entries().keys) == bobs, "bob sees another user's entries")
    #expect(try aliceLaptop.sortedListLines() == (try alicePhone.sortedListLines()))
    let users = try LifelogProcess.run(["serve", "user", "list"] + server.storeArguments)
    #expect(
      users.exitCode == 0 && users.stdout.contains("alice") && users.stdout.contains("bob"),
      "\(users)")

    // A removed user's machine is refused from then on (77), and keeps its own log.
    let removed = try LifelogProcess.run(
      ["serve", "user", "remove", "bob"] + server.storeArguments)
    #expect(removed.exitCode == 0, "\(removed)")
    let refused = try bobLaptop.run("sync")
    #expect(refused.exitCode == 77, "\(refused)")
    #expect(Set(try bobLaptop.entries().keys) == bobs)
  }

  // MARK: - Limits, failures and retries

  @Test func aRateLimitedClientWaitsForRetryAfterAndTheSyncSucceeds() throws {
    // Two requests at once, two a second: a sync (five requests, after the one of `remote add`)
    // meets a 429 part way through however slowly the machine runs it, and waits twice.
    let server = try startServer(["--rate-limit", "2", "--burst", "2"])
    let tokenPath = try tokenFile(try server.addUser("alice"), "alice")
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    let entry = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)

    let start = Date()
    let pushed = try laptop.expectSuccess("sync", "--timeout", "20")
    let seconds = secondsSince(start)
    #expect(pushed.stdout == "Synced 'home': pulled 0 batches, pushed 1\n", "\(pushed)")
    #expect(server.log.contains(" 429 "), "the server never limited the client:\n\(server.log)")
    #expect(seconds >= 0.9, "the client did not wait for Retry-After: \(seconds) s")
    #expect(seconds < 10, "the client waited \(seconds) s")

    usleep(1_100_000)
    try desktop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    let pulled = try desktop.expectSuccess("sync", "--timeout", "20")
    #expect(pulled.stdout.hasPrefix("Synced 'home': pulled 1 batch"), "\(pulled)")
    #expect(try desktop.entries()[entry] != nil)
    let limited = server.log.split(separator: "\n").filter { $0.contains(" 429 ") }.count
    #expect(limited >= 2, "\(server.log)")
    // Every refused request was sent again and answered: nothing failed for good.
    #expect(!server.log.contains(" 500 ") && !server.log.contains(" 409 "), "\(server.log)")
  }

  @Test func aRetryAfterPastTheTimeoutGivesUpAt69InsteadOfWaiting() throws {
    // One request a second, and none left after the remote is added.
    let server = try startServer(["--rate-limit", "1", "--burst", "1"])
    let tokenPath = try tokenFile(try server.addUser("alice"), "alice")
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    _ = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    let start = Date()
    let result = try laptop.run("sync", "--timeout", "1")
    #expect(result.exitCode == 69, "\(result)")
    #expect(
      result.stderr.contains("could not be reached") && result.stderr.contains("429"), "\(result)")
    #expect(secondsSince(start) < 2.5, "took \(secondsSince(start)) s")
    // Later, with the limit refilled, the sync goes through.
    usleep(1_100_000)
    let later = try laptop.run("sync", "--timeout", "30")
    #expect(later.exitCode == 0 && later.stdout.contains("pushed 1"), "\(later)")
  }

  @Test func aServerThatIsDownExits69WithinTheTimeout() throws {
    let server = try startServer()
    let tokenPath = try tokenFile(try server.addUser("alice"), "alice")
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    let entry = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    #expect(server.terminate() == 0, "\(server.log)")

    let start = Date()
    let down = try laptop.run("sync", "--timeout", "2")
    let seconds = secondsSince(start)
    #expect(down.exitCode == 69, "\(down)")
    #expect(down.stderr.hasPrefix("Error: "), "\(down)")
    #expect(down.stderr.contains("could not be reached"), "\(down)")
    #expect(down.stderr.contains(server.baseURL), "names the server: \(down)")
    #expect(seconds < 4, "gave up after \(seconds) s with --timeout 2")
    #expect(try laptop.entries()[entry] != nil)
    let status = try laptop.expectSuccess("status")
    #expect(status.stdout.contains("Pending: 1 change not yet synced"), "\(status)")
    #expect(status.stdout.contains("(failed: "), "\(status)")

    // Back up on the same address: the next sync sends what waited.
    let again = try startServer(port: server.port)
    let back = try laptop.expectSuccess("sync", "--timeout", "10")
    #expect(back.stdout == "Synced 'home': pulled 0 batches, pushed 1\n", "\(back)")
    #expect(again.log.contains("PUT /v1/batches/"))
  }

  @Test func aServerKilledMidSyncExits69WithoutLocalDamageAndTheNextSyncCompletes() throws {
    var server = try startServer()
    let port = server.port
    let tokenPath = try tokenFile(try server.addUser("alice"), "alice")
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    // Batches hold at most 5,000 rows: the laptop pushes two, the desktop then pulls two pages.
    let laptopEntries = Set(try laptop.addBacklog(6_000, label: "laptop backlog"))
    let desktopEntries = Set(
      try desktop.addBacklog(300, label: "desktop backlog", startingAt: 1_790_000_000))
    for machine in [laptop, desktop] {
      try machine.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    }

    // The server dies (kill -9) while the laptop pushes: once the first batch is in.
    let push = try killServer(&server, during: laptop, when: "PUT /v1/batches/")
    #expect(push.exitCode == 69, "\(push)")
    #expect(push.stderr.contains("could not be reached"), "\(push)")
    #expect(
      Set(try laptop.entries().keys) == laptopEntries, "the laptop's log lost or gained entries")
    let unsent = try laptop.expectSuccess("status")
    #expect(
      !unsent.stdout.contains("Unsent batches: 0"), "all was sent before the kill:\n\(unsent)")

    server = try startServer(port: port)
    let resumed = try laptop.expectSuccess("sync", "--timeout", "60")
    #expect(resumed.stdout.contains("Synced 'home': pulled 0 batches"), "\(resumed)")
    #expect(!server.log.contains(" 409 "), "\(server.log)")

    // And again while the desktop pulls the 6,000 entries: once the first page went out.
    let pull = try killServer(&server, during: desktop, when: "GET /v1/changes")
    #expect(pull.exitCode == 69, "\(pull)")
    #expect(pull.stderr.contains("could not be reached"), "\(pull)")
    let merged = try desktop.entries()
    #expect(desktopEntries.isSubset(of: merged.keys), "the desktop lost its own entries")
    #expect(Set(merged.keys).isSubset(of: laptopEntries.union(desktopEntries)))
    #expect(
      merged.count < laptopEntries.count + desktopEntries.count,
      "the whole pull finished before the kill")

    server = try startServer(port: port)
    try desktop.syncUntilQuiet()
    try laptop.syncUntilQuiet()
    let all = laptopEntries.union(desktopEntries)
    #expect(Set(try desktop.entries().keys) == all)
    #expect(Set(try laptop.entries().keys) == all)
    #expect(try laptop.sortedListLines() == (try desktop.sortedListLines()))
    #expect(!server.log.contains(" 409 "), "\(server.log)")
  }

  /// Starts `lifelog sync --timeout 5` on `machine`, kills the server with SIGKILL as soon as its
  /// log shows `request`, and returns what the sync ended with.
  ///
  /// The timeout leaves room for the local work before the first push (a debug build batches
  /// 5,000 rows in about a second) and bounds the retries after the kill.
  private func killServer(
    _ server: inout ServerProcess, during machine: SyncMachine, when request: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> CommandResult {
    // The timeout leaves room for a debug server on a loaded machine (a first push of 5,000 rows
    // took 2.3–2.6 s there, which made a 5 s timeout end some runs before the kill); after the kill
    // the client retries until the timeout, so that bounds how long it may take to give up.
    let timeout = 15
    let sync = try RunningLifelog(
      ["sync", "--timeout", String(timeout)], environment: machine.environment, capture: true)
    let seen = HTTPSyncTests.waitUntil(seconds: 60) {
      server.log.contains(request) || !sync.isRunning
    }
    let start = Date()
    server.kill()
    let (result, killed) = sync.wait(seconds: 30)
    #expect(
      seen && server.log.contains(request), "the server never logged \(request)",
      sourceLocation: sourceLocation)
    #expect(!killed, "the sync had to be killed", sourceLocation: sourceLocation)
    #expect(
      secondsSince(start) < Double(timeout + 3),
      "the sync gave up \(secondsSince(start)) s after the kill",
      sourceLocation: sourceLocation)
    return result
  }

  @Test func aClientKilledMidPushSendsTheSameBatchAgainWithoutAConflict() throws {
    let server = try startServer()
    let tokenPath = try tokenFile(try server.addUser("alice"), "alice")
    let proxy = try InterceptingProxy(targetPort: server.port)
    defer { proxy.stop() }
    let laptop = SyncMachine("laptop", in: folder)
    let entries = Set(try laptop.addBacklog(2_000, label: "laptop backlog"))
    try laptop.expectSuccess("remote", "add", "home", proxy.url, "--token-file", tokenPath)

    // The server stores batch 1 and answers 201; the answer never reaches the laptop, whose sync
    // is killed while it waits: the batch is on the server, the laptop does not know.
    proxy.mode = .holdPushAnswers
    let sync = try RunningLifelog(
      ["sync", "--timeout", "60"], environment: laptop.environment, capture: true)
    let stored = HTTPSyncTests.waitUntil(seconds: 60) {
      (server.log.contains("/1 201 ") && proxy.interceptedAnswers > 0) || !sync.isRunning
    }
    #expect(stored && sync.isRunning, "the push was not held: \(server.log)")
    sync.kill()
    let (killed, _) = sync.wait()
    #expect(killed.exitCode == 128 + SIGKILL, "\(killed)")
    let status = try laptop.expectSuccess("status")
    #expect(status.stdout.contains("Unsent batches: 1"), "\(status)")

    // The next sync sends the same bytes under the same name: 200 "exists", not 409.
    proxy.mode = .pass
    let again = try laptop.expectSuccess("sync")
    #expect(again.stdout == "Synced 'home': pulled 0 batches, pushed 1\n", "\(again)")
    let pushes = server.log.split(separator: "\n").filter { $0.contains("PUT /v1/batches/") }
    #expect(
      pushes.count == 2 && pushes[0].contains("/1 201 ") && pushes[1].contains("/1 200 "),
      "\(server.log)")
    #expect(!server.log.contains(" 409 "))

    let desktop = SyncMachine("desktop", in: folder)
    try desktop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    try desktop.syncUntilQuiet()
    try laptop.syncUntilQuiet()
    #expect(Set(try desktop.entries().keys) == entries)
    #expect(try laptop.sortedListLines() == (try desktop.sortedListLines()))
  }

  @Test func aPushWhoseAnswerIsLostIsRetriedWithinTheSameSync() throws {
    let server = try startServer()
    let tokenPath = try tokenFile(try server.addUser("alice"), "alice")
    let proxy = try InterceptingProxy(targetPort: server.port)
    defer { proxy.stop() }
    let laptop = SyncMachine("laptop", in: folder)
    let entry = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess("remote", "add", "home", proxy.url, "--token-file", tokenPath)

    proxy.mode = .dropNextPushAnswer
    let result = try laptop.expectSuccess("sync", "--timeout", "20")
    #expect(result.stdout == "Synced 'home': pulled 0 batches, pushed 1\n", "\(result)")
    #expect(proxy.interceptedAnswers == 1)
    let pushes = server.log.split(separator: "\n").filter { $0.contains("PUT /v1/batches/") }
    #expect(
      pushes.count == 2 && pushes[0].contains("/1 201 ") && pushes[1].contains("/1 200 "),
      "\(server.log)")

    let desktop = SyncMachine("desktop", in: folder)
    try desktop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    try desktop.syncUntilQuiet()
    #expect(try desktop.entries()[entry] != nil)
  }

  @Test func aCopiedLogIsRefusedWith409AndNothingIsOverwritten() throws {
    let server = try startServer()
    let tokenPath = try tokenFile(try server.addUser("alice"), "alice")
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")
    try laptop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    try laptop.expectSuccess("sync")

    // The log is copied to another machine (same device id); both write, both sync.
    let copy = SyncMachine("copy", in: folder)
    try FileManager.default.createDirectory(
      atPath: (copy.databasePath as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    for suffix in ["", "-wal"]
    where FileManager.default.fileExists(atPath: laptop.databasePath + suffix) {
      try FileManager.default.copyItem(
        atPath: laptop.databasePath + suffix, toPath: copy.databasePath + suffix)
    }
    let fromLaptop = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:30")
    _ = try copy.add("lunch", "salad", "--at", "2026-12-01 12:45")
    try laptop.expectSuccess("sync")
    let conflict = try copy.run("sync")
    #expect(conflict.exitCode == 69, "\(conflict)")
    #expect(conflict.stderr.contains("copied from another machine"), "\(conflict)")
    #expect(conflict.stderr.contains("Nothing was overwritten"), "\(conflict)")
    #expect(server.log.contains(" 409 "), "\(server.log)")

    // The server still holds the laptop's batch: a new machine gets the laptop's lunch.
    let desktop = SyncMachine("desktop", in: folder)
    try desktop.expectSuccess("remote", "add", "home", server.baseURL, "--token-file", tokenPath)
    try desktop.syncUntilQuiet()
    #expect(try desktop.entries()[fromLaptop]?["note"] as? String == "soup")
    #expect(try desktop.sortedListLines() == (try laptop.sortedListLines()))
  }

  @Test func httpsWorksWithTheServersCertificateAndATLSFailureSaysSo() throws {
    guard TestCertificate.isAvailable else { return }
    let certificate = folder.file("cert.pem")
    let key = folder.file("key.pem")
    try TestCertificate.make(certificate: certificate, key: key)
    let server = try startServer(["--tls-cert", certificate, "--tls-key", key])
    let tokenPath = try tokenFile(try server.addUser("alice"), "alice")
    let url = "https://127.0.0.1:\(server.port)"
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    let entry = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")

    // A certificate the system does not trust: refused, and the message says it is about TLS.
    let untrusted = try laptop.run("remote", "add", "home", url, "--token-file", tokenPath)
    #expect(untrusted.exitCode == 69, "\(untrusted)")
    #expect(untrusted.stderr.contains("TLS"), "\(untrusted)")
    #expect(try laptop.expectSuccess("remote", "list").stdout.contains("No remotes"))
    // https:// to a server that speaks plain HTTP: a TLS failure too, not a hang.
    let plain = try startServer()
    let mismatch = try laptop.run(
      "remote", "add", "plain", "https://127.0.0.1:\(plain.port)", "--token-file", tokenPath)
    #expect(mismatch.exitCode == 69 && mismatch.stderr.contains("TLS"), "\(mismatch)")

    // Trusting its certificate (LIFELOG_CA_FILE), both machines sync over HTTPS.
    let trusted = ["LIFELOG_CA_FILE": certificate]
    for machine in [laptop, desktop] {
      for arguments in [["remote", "add", "home", url, "--token-file", tokenPath], ["sync"]] {
        let result = try LifelogProcess.run(
          arguments, environment: machine.environment.merging(trusted) { $1 })
        #expect(result.exitCode == 0, "\(machine.name): \(arguments)\n\(result)")
      }
    }
    #expect(try desktop.entries()[entry] != nil)
    let withoutTrust = try desktop.run("sync")
    #expect(withoutTrust.exitCode == 69 && withoutTrust.stderr.contains("TLS"), "\(withoutTrust)")
  }

  /// Polls `condition` every millisecond until it holds; false when `seconds` pass first.
  static func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      usleep(1_000)
    }
    return condition()
  }
}
