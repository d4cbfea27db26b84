import Foundation
import LifelogTestSupport

/// Runs a helper program (tmux, bash, zsh, fish, groff) and returns its status and output.
public enum Subprocess {
  public struct Output: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
  }

  /// Runs `program` (found on PATH) with `arguments` and waits for it.
  @discardableResult
  public static func run(
    _ program: String, _ arguments: [String], environment: [String: String]? = nil
  ) throws -> Output {
    // posix_spawn and waitpid rather than Foundation's Process, which never sees the end of a
    // program that leaves a daemon behind (tmux's server); output goes to files for the same reason.
    let folder = TemporaryDirectory(prefix: "lifelog-subprocess")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, folder.file("out"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(
      &actions, 2, folder.file("err"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // Nothing else of this process leaks in: a tmux server holding the write end of another
    // test's pipe would keep that test's child from ever reading to the end of its input.
    _ = closeFrom(&actions, 3)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let variables =
      (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0)=\($1)") } + [nil]
    defer { variables.forEach { free($0) } }
    // Signals as a shell would leave them: none blocked, all default (the test's threads block some,
    // and a child inherits that; then Ctrl-C would never reach the shell under test).
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    var allSignals = sigset_t()
    sigemptyset(&noSignals)
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let path = program.hasPrefix("/") ? program : (searchPath(program) ?? program)
    let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, variables)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let exited = status & 0x7f == 0
    return Output(
      status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
      stdout: (try? String(contentsOfFile: folder.file("out"), encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: folder.file("err"), encoding: .utf8)) ?? "")
  }

  /// glibc's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not show.
  private static let closeFrom:
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
      else {
        fatalError("glibc 2.34 or later is needed (posix_spawn_file_actions_addclosefrom_np)")
      }
      return unsafeBitCast(
        symbol,
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
      )
    }()

  /// The full path of `program` on the test's PATH (or the usual folders).
  private static func searchPath(_ program: String) -> String? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    return (folders + ["/usr/bin", "/bin"]).map { "\($0)/\(program)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Whether `program` is on PATH.
  public static func exists(_ program: String) -> Bool {
    searchPath(program) != nil
  }
}
