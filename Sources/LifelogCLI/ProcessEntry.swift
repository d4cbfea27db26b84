@preconcurrency import Glibc
import LifelogCore

extension LifelogCommand {
  /// Runs `lifelog` as a process: the real arguments, environment, clock and time zone.
  public static func main() -> Never {
    TrapReport.install()
    let environment = ProcessEnvironment.read()
    let errors = FileOutput(descriptor: STDERR_FILENO, retries: 8)
    let now: Int64
    do {
      now = try ProcessEnvironment.now(environment)
    } catch {
      errors.write("Error: \(error)\n")
      errors.flush()
      exit(ExitCode.configuration)
    }
    let zoneName = environment["TZ"].flatMap { $0.isEmpty ? nil : $0 } ?? "the local time zone"
    if let tz = environment["TZ"], !SystemTimeZone.isKnown(tz) {
      errors.write(
        "Warning: TZ '\(tz)' is not a time zone this system knows, so times are read as UTC; "
          + "set TZ to a name such as 'Europe/Warsaw'\n")
    }
    let context = Context(
      environment: environment, output: FileOutput(descriptor: STDOUT_FILENO), errors: errors,
      outputIsTerminal: isatty(STDOUT_FILENO) == 1, now: now, zone: SystemTimeZone.current,
      zoneName: zoneName, inputIsTerminal: isatty(STDIN_FILENO) == 1)
    context.prompt = TerminalPrompt.ifInteractive()
    context.isWholeProcess = true
    signal(SIGPIPE, SIG_IGN)
    exit(run(Array(CommandLine.arguments.dropFirst()), in: context))
  }
}

/// Reads the process environment without Foundation (which would add milliseconds to start-up).
enum ProcessEnvironment {
  /// Each `NAME=value` split at its first `=` in its bytes: searching the `String` by `Character`
  /// (grapheme clusters) cost about 5% of a whole `add`'s instructions with 40 variables.
  static func read() -> [String: String] {
    var count = 0
    while environ[count] != nil { count += 1 }
    var result: [String: String] = [:]
    result.reserveCapacity(count)
    for index in 0..<count {
      guard let entry = environ[index], let equals = strchr(entry, 0x3D) else { continue }
      let nameLength = entry.distance(to: equals)
      let name = entry.withMemoryRebound(to: UInt8.self, capacity: nameLength) {
        String(decoding: UnsafeBufferPointer(start: $0, count: nameLength), as: UTF8.self)
      }
      result[name] = String(cString: equals + 1)
    }
    return result
  }

  /// The current time, or `LIFELOG_NOW` (ISO 8601 with offset) when set, for tests and demos.
  static func now(_ environment: [String: String]) throws -> Int64 {
    if let fixed = environment["LIFELOG_NOW"], !fixed.isEmpty {
      guard let time = try? ISO8601Time.parse(fixed) else {
        throw ConfigurationError(
          "LIFELOG_NOW '\(fixed)' is not an ISO 8601 time with an offset, such as '2026-12-01T12:00:00+01:00'"
        )
      }
      return time.instant
    }
    return SystemClock.unixSeconds()
  }
}
