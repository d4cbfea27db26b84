import LifelogCLI
import LifelogCore
import LifelogTestSupport

/// Runs `lifelog` commands in this process against one database, with a fixed clock and zone.
///
/// The same parsing and commands as the binary, without a process per call, so tests of every
/// flag and error stay fast.
public struct InProcessCLI: Sendable {
  public let databasePath: String
  /// The current instant the commands see (Unix seconds).
  public var now: Int64
  public var zoneIdentifier: String
  public var environment: [String: String]

  /// - Parameters:
  ///   - now: ISO 8601 with offset; defaults to 2026-12-02 12:00 in Warsaw (a Wednesday).
  public init(
    databasePath: String, now: String = "2026-12-02T12:00:00+01:00", zone: String = "Europe/Warsaw",
    environment: [String: String] = [:]
  ) {
    self.databasePath = databasePath
    self.now = InProcessCLI.instant(now)
    self.zoneIdentifier = zone
    self.environment = environment
  }

  /// Runs one command line (without `lifelog`).
  @discardableResult
  public func run(_ arguments: [String]) -> CommandResult {
    let output = CapturedOutput()
    let errors = CapturedOutput()
    var environment = self.environment
    environment["LIFELOG_DB"] = databasePath
    environment["TZ"] = zoneIdentifier
    let context = Context(
      environment: environment, output: output, errors: errors, outputIsTerminal: false, now: now,
      zone: SystemTimeZone(identifier: zoneIdentifier), zoneName: zoneIdentifier)
    let code = LifelogCommand.run(arguments, in: context)
    return CommandResult(exitCode: code, stdout: output.text, stderr: errors.text)
  }

  /// Runs a command line written as one string, split on spaces (no quoting).
  @discardableResult
  public func run(_ line: String) -> CommandResult {
    run(line.split(separator: " ").map(String.init))
  }

  /// The Unix time of an ISO 8601 string with offset (``TestTime/instant(_:)``).
  public static func instant(_ iso: String) -> Int64 { TestTime.instant(iso) }
}
