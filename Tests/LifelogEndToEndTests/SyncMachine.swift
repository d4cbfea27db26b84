import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogCore
import LifelogTestSupport
import Testing

/// One machine in an end-to-end sync test: its own log in its own folder, driven through the real
/// `lifelog` binary with `LIFELOG_DB` and `TZ` set as a user's shell would.
struct SyncMachine {
  let name: String
  let databasePath: String

  init(_ name: String, in folder: TemporaryDirectory) {
    self.name = name
    databasePath = folder.file("\(name)/lifelog.db")
  }

  var environment: [String: String] { ["LIFELOG_DB": databasePath, "TZ": "Europe/Warsaw"] }

  /// Runs `lifelog arguments…` on this machine and waits for it.
  @discardableResult
  func run(_ arguments: String..., input: String? = nil) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment, input: input)
  }

  /// Runs `lifelog arguments…` and expects exit 0.
  @discardableResult
  func expectSuccess(
    _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> CommandResult {
    let result = try LifelogProcess.run(arguments, environment: environment)
    #expect(
      result.exitCode == 0, "\(name): lifelog \(arguments.joined(separator: " "))\n\(result)",
      sourceLocation: sourceLocation)
    return result
  }

  /// Adds an entry with the binary and returns its full id.
  func add(
    _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    let result = try LifelogProcess.run(
      ["add"] + arguments + ["--format", "json"], environment: environment)
    try #require(
      result.exitCode == 0, "\(name): lifelog add \(arguments)\n\(result)",
      sourceLocation: sourceLocation)
    let entry = try #require(
      try SyncMachine.objects(inJSON: result.stdout).first, "\(result)",
      sourceLocation: sourceLocation)
    return try #require(entry["id"] as? String, sourceLocation: sourceLocation)
  }

  /// Syncs until a run pulls and pushes nothing (at most `rounds` runs).
  func syncUntilQuiet(rounds: Int = 10, sourceLocation: SourceLocation = #_sourceLocation) throws {
    for _ in 0..<rounds {
      let result = try LifelogProcess.run(["sync"], environment: environment)
      try #require(
        result.exitCode == 0, "\(name): lifelog sync\n\(result)", sourceLocation: sourceLocation)
      if result.stdout.contains("pulled 0 batches, pushed 0") { return }
    }
    Issue.record(
      "\(name): sync still moved batches after \(rounds) runs", sourceLocation: sourceLocation)
  }

  /// Every entry as `lifelog list --format json --from 1970-01-01` shows it (with `--deleted`,
  /// the deleted ones), keyed by id.
  func entries(
    deleted: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [String: [String: Any]] {
    var arguments = ["list", "--format", "json", "--from", "1970-01-01"]
    if deleted { arguments.append("--deleted") }
    let result = try LifelogProcess.run(arguments, environment: environment)
    try #require(result.exitCode == 0, "\(name): \(result)", sourceLocation: sourceLocation)
    var byID: [String: [String: Any]] = [:]
    for object in try SyncMachine.objects(inJSON: result.stdout) {
      let id = try #require(object["id"] as? String, sourceLocation: sourceLocation)
      #expect(byID[id] == nil, "\(name) lists entry \(id) twice", sourceLocation: sourceLocation)
      byID[id] = object
    }
    return byID
  }

  /// The entry lines of `lifelog list --format json --from 1970-01-01`, sorted: two machines
  /// that converged print the same lines.
  func sortedListLines(deleted: Bool = false) throws -> [String] {
    var arguments = ["list", "--format", "json", "--from", "1970-01-01"]
    if deleted { arguments.append("--deleted") }
    let result = try LifelogProcess.run(arguments, environment: environment)
    return result.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }
      .map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }.sorted()
  }

  /// The objects of a JSON array (or the one object) that `--format json` printed.
  static func objects(inJSON text: String) throws -> [[String: Any]] {
    let value = try JSONSerialization.jsonObject(
      with: Data(text.utf8), options: [.fragmentsAllowed])
    if let array = value as? [[String: Any]] { return array }
    if let object = value as? [String: Any] { return [object] }
    return []
  }

  /// Adds `count` snack entries straight through the store, in one transaction, and returns their
  /// ids: thousands of entries in milliseconds instead of a process each.
  func addBacklog(
    _ count: Int, label: String, startingAt start: Int64 = 1_780_000_000
  ) throws -> [String] {
    let store = try LogStore(path: databasePath)
    let activity = try #require(try store.activity(named: "snack"))
    let entries = (0..<count).map { index in
      NewEntry(
        activityID: activity.id,
        time: LoggedTime(instant: start + Int64(index) * 60, offsetMinutes: 60),
        note: "\(label) \(index)", tags: ["backlog"])
    }
    try store.add(contentsOf: entries)
    return entries.map(\.id)
  }
}

// MARK: - Processes

/// A `lifelog` process started without waiting for it, to be killed or raced against.
final class RunningLifelog: @unchecked Sendable {
  let process = Process()
  private let output: Pipe?
  private let errors: Pipe?
  private var collectedOutput: AsyncData?
  private var collectedErrors: AsyncData?

  /// Starts `lifelog arguments…` with `environment`.
  ///
  /// - Parameters:
  ///   - capture: read stdout and stderr (else they go to /dev/null, which is all a kill trial needs).
  ///   - standardInput: what the process reads; a pipe left open plays a script whose stdin never ends.
  init(
    _ arguments: [String], environment: [String: String], capture: Bool = false,
    standardInput: Any? = nil
  ) throws {
    process.executableURL = URL(fileURLWithPath: LifelogProcess.binaryPath)
    process.arguments = arguments
    var base = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
    base.merge(environment) { $1 }
    process.environment = base
    process.standardInput = standardInput ?? FileHandle.nullDevice
    if capture {
      output = Pipe()
      errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
    } else {
      output = nil
      errors = nil
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
    }
    try process.run()
    if let output, let errors {
      collectedOutput = AsyncData(output.fileHandleForReading)
      collectedErrors = AsyncData(errors.fileHandleForReading)
    }
  }

  var isRunning: Bool { process.isRunning }

  func kill() { Glibc.kill(process.processIdentifier, SIGKILL) }

  /// Waits for the process to end, killing it after `seconds`.
  ///
  /// - Returns: its result, and whether it had to be killed.
  func wait(seconds: Double = 120) -> (result: CommandResult, killed: Bool) {
    let deadline = Date().addingTimeInterval(seconds)
    var killed = false
    while process.isRunning {
      if Date() > deadline {
        kill()
        killed = true
        break
      }
      usleep(5_000)
    }
    process.waitUntilExit()
    let stdout = collectedOutput?.wait() ?? Data()
    let stderr = collectedErrors?.wait() ?? Data()
    let status = process.terminationStatus
    let code = process.terminationReason == .uncaughtSignal ? 128 + status : status
    let result = CommandResult(
      exitCode: code, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
    return (result, killed)
  }
}

// MARK: - Randomness

/// The crash trials' generator: seeded, so a failing run replays from its printed seed.
typealias SeededGenerator = SplitMix64

extension SplitMix64 {
  /// `SYNC_CRASH_SEED` when set (to replay or explore), else the fixed seed of the normal run.
  static func seed() -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["SYNC_CRASH_SEED"], let seed = UInt64(text) {
      return seed
    }
    return 20_261_202
  }
}

/// Seconds since `start`.
func secondsSince(_ start: Date) -> Double { Date().timeIntervalSince(start) }

extension SyncMachine {
  /// The scenario every kind of remote must pass, as a person would live it: two machines that
  /// have both joined `remote` (the laptop with breakfast and a walk, the desktop with lunch, all
  /// made before the remote existed) sync; edits of different fields of one entry both survive and
  /// the later edit of one field wins; a delete and a restore made on the other machine sync; a
  /// third machine joins with `join` and gets everything, tombstones included.
  ///
  /// - Returns: the third machine.
  @discardableResult
  static func convergeAsAUserWould(
    laptop: SyncMachine, desktop: SyncMachine, remote: String,
    entries: (breakfast: String, walk: String, lunch: String), in folder: TemporaryDirectory,
    join: (SyncMachine) throws -> Void
  ) throws -> SyncMachine {
    let (breakfast, walk, lunch) = entries
    let first = try laptop.expectSuccess("sync")
    #expect(first.stdout == "Synced '\(remote)': pulled 0 batches, pushed 1\n", "\(first)")
    let second = try desktop.expectSuccess("sync")
    #expect(second.stdout == "Synced '\(remote)': pulled 1 batch, pushed 1\n", "\(second)")
    try laptop.syncUntilQuiet()
    #expect(Set(try laptop.entries().keys) == [breakfast, walk, lunch])
    #expect(try laptop.sortedListLines() == (try desktop.sortedListLines()))

    // Different fields of one entry edited on both machines: both edits survive. The same field
    // edited on both: both machines agree on the later edit.
    try laptop.expectSuccess("edit", breakfast, "--note", "oatmeal, banana")
    try desktop.expectSuccess("edit", String(breakfast.prefix(8)), "--duration", "15m")
    try laptop.expectSuccess("edit", lunch, "--note", "soup (laptop)")
    usleep(20_000)
    try desktop.expectSuccess("edit", lunch, "--note", "soup (desktop, later)")
    for machine in [laptop, desktop, laptop, desktop] { try machine.syncUntilQuiet() }
    for machine in [laptop, desktop] {
      let entries = try machine.entries()
      #expect(entries[breakfast]?["note"] as? String == "oatmeal, banana", "\(machine.name)")
      #expect(entries[breakfast]?["duration"] as? Int == 900, "\(machine.name)")
      #expect(entries[lunch]?["note"] as? String == "soup (desktop, later)", "\(machine.name)")
    }

    // A delete syncs, and so does a restore made on the other machine.
    try laptop.expectSuccess("delete", walk)
    try laptop.syncUntilQuiet()
    try desktop.syncUntilQuiet()
    #expect(try desktop.entries()[walk] == nil)
    #expect(try desktop.entries(deleted: true)[walk]?["deleted"] as? Bool == true)
    try desktop.expectSuccess("restore", walk)
    try desktop.syncUntilQuiet()
    try laptop.syncUntilQuiet()
    #expect(try laptop.entries()[walk]?["duration"] as? Int == 1800)
    #expect(try laptop.entries(deleted: true)[walk] == nil)

    // A tombstone, then a third machine joins and gets everything, deleted entries included.
    try desktop.expectSuccess("delete", lunch)
    try desktop.syncUntilQuiet()
    let phone = SyncMachine("phone", in: folder)
    try join(phone)
    try phone.syncUntilQuiet()
    try laptop.syncUntilQuiet()
    for machine in [laptop, phone] {
      #expect(try machine.sortedListLines() == (try desktop.sortedListLines()), "\(machine.name)")
      #expect(
        try machine.sortedListLines(deleted: true) == (try desktop.sortedListLines(deleted: true)),
        "\(machine.name)")
    }
    #expect(Set(try phone.entries().keys) == [breakfast, walk])
    #expect(Set(try phone.entries(deleted: true).keys) == [lunch])
    return phone
  }
}
