@preconcurrency import Glibc
import LifelogCore

/// A command line prepared once and run many times with `posix_spawn`.
///
/// The C strings and file actions are built in `init`, so the timed part of ``timedRun()`` is only
/// `posix_spawn` and `waitpid`: what a shell pays to start the program and wait for it.
final class ChildCommand {
  /// The program and its arguments, for messages.
  let commandLine: String
  private let path: String
  private let argv: [UnsafeMutablePointer<CChar>?]
  private let envp: [UnsafeMutablePointer<CChar>?]
  /// stdin from /dev/null (or the input file), stdout to /dev/null, stderr inherited.
  private let discardingActions: UnsafeMutablePointer<posix_spawn_file_actions_t>

  /// - Parameter input: a file to read standard input from, instead of `/dev/null`.
  init(executable: String, arguments: [String], environment: [String: String], input: String? = nil)
  {
    path = executable
    commandLine = ([executable] + arguments).joined(separator: " ")
    argv = ([executable] + arguments).map { strdup($0) } + [nil]
    envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    discardingActions = .allocate(capacity: 1)
    posix_spawn_file_actions_init(discardingActions)
    posix_spawn_file_actions_addopen(
      discardingActions, STDIN_FILENO, input ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(discardingActions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
  }

  deinit {
    for pointer in argv + envp { free(pointer) }
    posix_spawn_file_actions_destroy(discardingActions)
    discardingActions.deallocate()
  }

  /// Runs the command once with its output discarded.
  ///
  /// - Returns: the wall time from just before `posix_spawn` to just after `waitpid`, in seconds.
  /// - Throws: ``BenchmarkError`` when the command cannot start or exits unsuccessfully.
  func timedRun() throws -> Double {
    let start = MonotonicClock.nanoseconds()
    let pid = try spawn(actions: discardingActions)
    try wait(for: pid)
    return Double(MonotonicClock.nanoseconds() - start) / 1e9
  }

  /// Runs the command once with its output discarded, and reports its peak memory too.
  ///
  /// - Returns: the wall time in seconds and the child's peak resident set size in bytes.
  func timedRunWithMemory() throws -> (seconds: Double, peakBytes: Int) {
    let run = try timedRunWithUsage()
    return (run.seconds, run.peakBytes)
  }

  /// Runs the command once with its output discarded, and reports what it used.
  ///
  /// - Returns: the wall time, the child's CPU time (user and system; unlike the wall time, hardly
  ///   changed by other work on a busy machine), both in seconds, and its peak resident set size.
  func timedRunWithUsage() throws -> (seconds: Double, cpuSeconds: Double, peakBytes: Int) {
    let start = MonotonicClock.nanoseconds()
    let pid = try spawn(actions: discardingActions)
    var usage = rusage()
    let status = try wait(for: pid, usage: &usage)
    try check(status)
    let cpu = [usage.ru_utime, usage.ru_stime].reduce(0.0) {
      $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6
    }
    return (Double(MonotonicClock.nanoseconds() - start) / 1e9, cpu, Int(usage.ru_maxrss) * 1024)
  }

  /// Runs the command once and returns all it wrote to stdout.
  ///
  /// - Parameter discardingErrors: send its stderr to `/dev/null` instead of the benchmark's.
  func capturedOutput(discardingErrors: Bool = false) throws -> [UInt8] {
    guard let ends = ChildPipe.make() else {
      throw BenchmarkError("cannot make a pipe: \(String(cString: strerror(errno)))")
    }
    let (readEnd, writeEnd) = ends
    defer { close(readEnd) }
    let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
    posix_spawn_file_actions_init(actions)
    defer {
      posix_spawn_file_actions_destroy(actions)
      actions.deallocate()
    }
    posix_spawn_file_actions_addopen(actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(actions, writeEnd, STDOUT_FILENO)
    if discardingErrors {
      posix_spawn_file_actions_addopen(actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
    }
    let pid: pid_t
    do {
      pid = try spawn(actions: actions)
      close(writeEnd)
    } catch {
      close(writeEnd)
      throw error
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
      if count > 0 {
        output.append(contentsOf: buffer[0..<count])
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    try wait(for: pid)
    return output
  }

  private func spawn(actions: UnsafeMutablePointer<posix_spawn_file_actions_t>) throws -> pid_t {
    var pid: pid_t = 0
    let code = posix_spawn(&pid, path, actions, nil, argv, envp)
    guard code == 0 else {
      throw BenchmarkError("cannot start '\(commandLine)': \(String(cString: strerror(code)))")
    }
    return pid
  }

  private func wait(for pid: pid_t) throws {
    var usage = rusage()
    try check(try wait(for: pid, usage: &usage))
  }

  private func wait(for pid: pid_t, usage: inout rusage) throws -> Int32 {
    var status: Int32 = 0
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else {
        throw BenchmarkError("waitpid failed: \(String(cString: strerror(errno)))")
      }
    }
    return status
  }

  private func check(_ status: Int32) throws {
    // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
    let signal = status & 0x7f
    let exitCode = (status >> 8) & 0xff
    if signal != 0 {
      throw BenchmarkError("'\(commandLine)' was killed by signal \(signal)")
    }
    if exitCode != 0 {
      throw BenchmarkError("'\(commandLine)' exited with status \(exitCode)")
    }
  }

  /// Stops a server started in the background: SIGTERM, then waits until it has exited, so its
  /// port and files are free again.
  static func terminate(_ pid: pid_t) {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
  }
}
