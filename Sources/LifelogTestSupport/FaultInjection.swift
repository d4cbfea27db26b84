import Foundation

/// Runs the `lifelog` binary under libfiu (`fiu-run`, Debian's `fiu-utils`), whose preload makes
/// chosen libc calls fail with a real errno, or under `bash` for a redirection (`> /dev/full`).
///
/// libfiu wraps the calls SQLite makes (`pread`, `pwrite`, `fdatasync`, `open`), in the static-
/// stdlib release binary as in the debug one, since both call the system's libc.
public enum FaultInjection {
  /// Where `fiu-run` is installed (the Makefile's TEST_PACKAGES installs `fiu-utils`).
  public static let fiuRun = "/usr/bin/fiu-run"

  /// Whether libfiu is installed.
  public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: fiuRun) }

  /// A point that fails every call with `errno` (`posix/io/sync/fdatasync`, `posix/io/rw/pread`).
  public static func failing(_ point: String, errno: Int32 = EIO) -> String {
    "enable name=\(point),failinfo=\(errno)"
  }

  /// Runs `lifelog arguments...` with the libfiu `points` enabled (`fiu-run -x -c` each).
  public static func run(
    _ arguments: [String], failing points: [String], environment: [String: String]
  ) throws -> CommandResult {
    let options = points.flatMap { ["-c", $0] }
    return try LifelogProcess.execute(
      fiuRun, ["-x"] + options + [LifelogProcess.binaryPath] + arguments, environment: environment)
  }

  /// Runs `script` with bash, with `$LIFELOG` naming the binary under test.
  public static func shell(_ script: String, environment: [String: String]) throws -> CommandResult
  {
    var environment = environment
    environment["LIFELOG"] = LifelogProcess.binaryPath
    return try LifelogProcess.execute("/bin/bash", ["-c", script], environment: environment)
  }
}
