@preconcurrency import Glibc
import LifelogCore

extension LifelogCommand {
  /// Runs `lifelog` as a process: the real arguments, environment, clock and time zone.
  public static func main() -> Never {
    let environment = ProcessEnvironment.read()
    let errors = FileOutput(descriptor: STDERR_FILENO)
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
  static func read() -> [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
      let text = String(cString: entry)
      if let equals = text.firstIndex(of: "=") {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      pointer += 1
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
