@preconcurrency import Glibc
import LifelogCore

/// Runs another program (`systemctl`, `notify-send`, a `remind --exec` command) and waits for it,
/// without Foundation.
///
/// The program is found on the context's `PATH` (so tests put a fake `systemctl` first), gets the
/// environment it is given without its secrets (``ChildEnvironment``), reads `/dev/null`, and its standard output and error are read back
/// through one pipe, bounded in size and in time: a program that hangs is killed after
/// ``timeoutSeconds``, so a cron run always ends.
struct ChildProcess {
  static let timeoutSeconds = 30
  /// Output kept from the program; the rest is read and dropped.
  static let outputLimit = 64 * 1024

  struct Outcome {
    /// The exit status, or 128 + the signal that ended it (as a shell reports it).
    let status: Int32
    let output: String
    let timedOut: Bool
  }

  /// The full path of `name` on `PATH`, or `name` itself when it holds a slash; nil when there
  /// is no executable file by that name.
  static func find(_ name: String, environment: [String: String]) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    where !folder.isEmpty {
      let candidate = "\(folder)/\(name)"
      var info = stat()
      if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
        access(candidate, X_OK) == 0
      {
        return candidate
      }
    }
    return nil
  }

  /// Runs `executable` (a full path) with `arguments` and waits for it.
  static func run(
    _ executable: String, _ arguments: [String], environment: ChildEnvironment
  ) throws -> Outcome {
    guard let ends = ChildPipe.make() else {
      throw ConfigurationError("Cannot run '\(executable)': \(String(cString: strerror(errno)))")
    }
    let (readEnd, writeEnd) = ends
    defer { close(readEnd) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO)
    posix_spawn_file_actions_adddup2(&actions, writeEnd, STDERR_FILENO)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp =
      environment.variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [
        nil
      ]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    close(writeEnd)
    guard code == 0 else {
      throw ConfigurationError("Cannot run '\(executable)': \(String(cString: strerror(code)))")
    }
    let (output, timedOut) = readAll(readEnd, pid: pid)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Outcome(
      status: exit, output: String(decoding: output, as: UTF8.self), timedOut: timedOut)
  }

  /// Reads the pipe to its end, or kills the child at the deadline.
  private static func readAll(_ descriptor: Int32, pid: pid_t) -> ([UInt8], Bool) {
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 8192)
    let second: UInt64 = 1_000_000_000
    let deadline = Int64(SystemClock.monotonicNanoseconds() / second) + Int64(timeoutSeconds)
    while true {
      let left = deadline - Int64(SystemClock.monotonicNanoseconds() / second)
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = left > 0 ? poll(&poller, 1, Int32(left * 1000)) : 0
      if ready == 0 {
        kill(pid, SIGKILL)
        return (output, true)
      }
      if ready < 0 {
        if errno == EINTR { continue }
        return (output, false)
      }
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        if output.count < outputLimit {
          output.append(contentsOf: buffer[0..<min(count, outputLimit - output.count)])
        }
      } else if count == 0 || errno != EINTR {
        return (output, false)
      }
    }
  }
}
