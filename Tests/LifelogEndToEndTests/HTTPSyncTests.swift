import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogCore
import LifelogTestSupport
import Testing

/// Sync through a real `lifelog serve` on 127.0.0.1 with the real `lifelog` binary on both ends,
/// the way people use it: machines with their own logs, a server started and stopped by each
/// test, tokens made with `lifelog serve user add`.
@Suite struct HTTPSyncTests: HTTPSyncSuite {
  let folder = TemporaryDirectory(prefix: "lifelog-http-e2e")

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

/// What the HTTP sync suites share: a folder for each test, servers whose data live in it, and
/// token files.
protocol HTTPSyncSuite {
  var folder: TemporaryDirectory { get }
}

extension HTTPSyncSuite {
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
}
