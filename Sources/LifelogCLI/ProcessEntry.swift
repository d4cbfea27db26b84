@preconcurrency import Glibc
import LifelogCore

extension LifelogCommand {
  /// Runs `lifelog` as a process: the real arguments, environment, clock and time zone.
  public static func main() -> Never {
    TrapReport.install()
    let errors = FileOutput(descriptor: STDERR_FILENO, retries: 8)
    let now: Int64
    do {
      now = try ProcessEnvironment.now(fixedBy: ProcessEnvironment.value(named: "LIFELOG_NOW"))
    } catch {
      errors.write("Error: \(error)\n")
      errors.flush()
      exit(ExitCode.configuration)
    }
    let zone = ProcessEnvironment.value(named: "TZ")
    let zoneName = zone.flatMap { $0.isEmpty ? nil : $0 } ?? "the local time zone"
    if let tz = zone, !SystemTimeZone.isKnown(tz) {
      errors.write(
        "Warning: TZ '\(tz)' is not a time zone this system knows, so times are read as UTC; "
          + "set TZ to a name such as 'Europe/Warsaw'\n")
    }
    let context = Context(
      givenEnvironment: nil, output: FileOutput(descriptor: STDOUT_FILENO), errors: errors,
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

  /// The value of the variable `name` in the process environment, or nil when it is not set.
  ///
  /// Read from `environ` as ``read()`` reads it (when a name is there twice, the last one
  /// counts), without building the dictionary of every variable.
  static func value(named name: String) -> String? {
    name.withCString { wanted -> String? in
      let length = strlen(wanted)
      // A name is what comes before an entry's first `=`, so one holding `=` is never set.
      guard strchr(wanted, 0x3D) == nil else { return nil }
      var found: UnsafeMutablePointer<CChar>?
      var index = 0
      while let entry = environ[index] {
        index += 1
        if strncmp(entry, wanted, length) == 0, entry[length] == 0x3D {
          found = entry + length + 1
        }
      }
      return found.map { String(cString: $0) }
    }
  }

  /// The current time, or `fixed` (`LIFELOG_NOW`, ISO 8601 with offset) when set and not empty,
  /// for tests and demos.
  static func now(fixedBy fixed: String?) throws -> Int64 {
    if let fixed, !fixed.isEmpty {
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
