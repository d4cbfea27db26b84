import Foundation
@preconcurrency import Glibc
import LifelogCore
import LifelogTestSupport
import Testing

/// One machine in an end-to-end sync test: its own log in its own folder, driven through the real
/// `lifelog` binary with `LIFELOG_DB` and `TZ` set as a user's shell would.
public struct SyncMachine: Sendable {
  public let name: String
  public let databasePath: String

  public init(_ name: String, in folder: TemporaryDirectory) {
    self.name = name
    databasePath = folder.file("\(name)/lifelog.db")
  }

  public var environment: [String: String] { ["LIFELOG_DB": databasePath, "TZ": "Europe/Warsaw"] }

  /// Runs `lifelog arguments…` on this machine and waits for it.
  @discardableResult
  public func run(_ arguments: String..., input: String? = nil) throws -> CommandResult {
    try LifelogProcess.run(arguments, environment: environment, input: input)
  }

  /// Runs `lifelog arguments…` and expects exit 0.
  @discardableResult
  public func expectSuccess(
    _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> CommandResult {
    let result = try LifelogProcess.run(arguments, environment: environment)
    #expect(
      result.exitCode == 0, "\(name): lifelog \(arguments.joined(separator: " "))\n\(result)",
      sourceLocation: sourceLocation)
    return result
  }

  /// Adds an entry with the binary and returns its full id.
  public func add(
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
  public func syncUntilQuiet(
    rounds: Int = 10, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
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
  public func entries(
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
  public func sortedListLines(deleted: Bool = false) throws -> [String] {
    var arguments = ["list", "--format", "json", "--from", "1970-01-01"]
    if deleted { arguments.append("--deleted") }
    let result = try LifelogProcess.run(arguments, environment: environment)
    return result.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }
      .map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }.sorted()
  }

  /// The objects of a JSON array (or the one object) that `--format json` printed.
  public static func objects(inJSON text: String) throws -> [[String: Any]] {
    let value = try JSONSerialization.jsonObject(
      with: Data(text.utf8), options: [.fragmentsAllowed])
    if let array = value as? [[String: Any]] { return array }
    if let object = value as? [String: Any] { return [object] }
    return []
  }

  /// Adds `count` snack entries straight through the store, in one transaction, and returns their
  /// ids: thousands of entries in milliseconds instead of a process each.
  public func addBacklog(
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
public final class RunningLifelog: @unchecked Sendable {
  public let process = Process()
  private let output: Pipe?
  private let errors: Pipe?
  private var collectedOutput: AsyncData?
  private var collectedErrors: AsyncData?

  /// Starts `lifelog arguments…` with `environment`.
  ///
  /// - Parameters:
  ///   - capture: read stdout and stderr (else they go to /dev/null, which is all a kill trial needs).
  ///   - standardInput: what the process reads; a pipe left open plays a script whose stdin never ends.
  public init(
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

  public var isRunning: Bool { process.isRunning }

  public func kill() { Glibc.kill(process.processIdentifier, SIGKILL) }

  /// Waits for the process to end, killing it after `seconds`.
  ///
  /// - Returns: its result, and whether it had to be killed.
  public func wait(seconds: Double = 120) -> (result: CommandResult, killed: Bool) {
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
