@preconcurrency import Glibc

/// A `lifelog serve --listen 127.0.0.1:0` child process, its request log in a file; stopped with
/// SIGTERM by ``stop()``.
final class BenchServer {
  let pid: pid_t
  let port: Int
  let logPath: String
  var url: String { "http://127.0.0.1:\(port)" }
  private var stopped = false
  private let output: Int32

  /// - Parameter store: `--data DIR` or `--store URL`; `--data data` when nil.
  init(
    lifelog: String, data: String, log: String, store: [String]? = nil, arguments: [String] = []
  ) throws {
    logPath = log
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0,
      fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0
    else {
      throw BenchmarkError("cannot make a pipe: \(String(cString: strerror(errno)))")
    }
    output = ends[0]
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
    posix_spawn_file_actions_addopen(
      &actions, STDERR_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let words =
      [lifelog, "serve", "--listen", "127.0.0.1:0"] + (store ?? ["--data", data]) + arguments
    let argv = words.map { strdup($0) } + [nil]
    let environment: [String] = ["PATH=/usr/bin:/bin", "HOME=" + data]
    let envp = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var child: pid_t = 0
    let code = posix_spawn(&child, lifelog, &actions, nil, argv, envp)
    close(ends[1])
    guard code == 0 else {
      close(ends[0])
      throw BenchmarkError("cannot start lifelog serve: \(String(cString: strerror(code)))")
    }
    pid = child
    // "lifelog serve: listening on http://127.0.0.1:PORT, data in DIR"
    var line: [UInt8] = []
    var byte: UInt8 = 0
    var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
    while line.last != 0x0A {
      guard poll(&descriptor, 1, 20_000) == 1, read(ends[0], &byte, 1) == 1 else { break }
      line.append(byte)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard let range = text.firstRange(of: "127.0.0.1:"),
      let port = Int(text[range.upperBound...].prefix { $0.isNumber })
    else {
      kill(child, SIGKILL)
      var status: Int32 = 0
      waitpid(child, &status, 0)
      close(ends[0])
      throw BenchmarkError("lifelog serve did not start: '\(text)'; see \(log)")
    }
    self.port = port
  }

  /// SIGTERM, then waits for the server to finish.
  func stop() {
    guard !stopped else { return }
    stopped = true
    ChildCommand.terminate(pid)
    close(output)
  }

  deinit { stop() }

  /// How many lines of the request log contain `text`.
  func logLines(containing text: String) -> Int {
    guard let file = fopen(logPath, "r") else { return 0 }
    defer { fclose(file) }
    var count = 0
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0 {
      if let line, String(cString: line).contains(text) { count += 1 }
    }
    return count
  }
}
