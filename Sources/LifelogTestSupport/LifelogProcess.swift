import Foundation

/// Runs the built `lifelog` binary as a subprocess, as a user or a script would.
public enum LifelogProcess {
  /// The binary under test: `LIFELOG_BIN`, else `lifelog` beside the test bundle, else the debug
  /// build folder of this checkout.
  public static var binaryPath: String {
    if let path = ProcessInfo.processInfo.environment["LIFELOG_BIN"] { return path }
    let bundle = Bundle.main.bundleURL
    let candidates = [
      bundle.appendingPathComponent("lifelog").path,
      bundle.deletingLastPathComponent().appendingPathComponent("lifelog").path,
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/lifelog").path,
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
  }

  /// Writing to a pipe whose reader has exited raises SIGPIPE, whose default action ends the
  /// whole test process (every suite at once, exit signal 13) instead of failing one write; the
  /// `lifelog` binary ignores it the same way (`ProcessEntry`).
  private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

  /// Runs `lifelog arguments...` and waits for it.
  ///
  /// - Parameters:
  ///   - environment: added to a minimal environment (PATH, HOME), so the caller's own
  ///     `LIFELOG_DB` or `TZ` never leaks in.
  ///   - input: written to standard input, which is then closed.
  public static func run(
    _ arguments: [String], environment: [String: String] = [:], input: String? = nil
  ) throws -> CommandResult {
    try execute(binaryPath, arguments, environment: environment, input: input)
  }

  /// Runs `executable arguments...` as ``run(_:environment:input:)`` runs lifelog: a minimal
  /// environment plus `environment`, `input` on standard input, both outputs read to their end.
  static func execute(
    _ executable: String, _ arguments: [String], environment: [String: String],
    input: String? = nil
  ) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var base = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
    base.merge(environment) { $1 }
    process.environment = base
    let stdout = Pipe()
    let stderr = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    _ = ignoreBrokenPipes
    try process.run()
    // A child may exit without reading all of its input (a refused import stops at its first bad
    // line; most commands never read it): the write then fails with EPIPE, which is no failure of
    // the test, whose verdict is the exit code and the output.
    if let input { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    // Read both pipes fully before waiting, so a large output cannot block the child.
    let errorData = AsyncData(stderr.fileHandleForReading)
    let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
      exitCode: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData.wait(), as: UTF8.self))
  }
}

/// Reads a file handle to its end on another thread.
public final class AsyncData: @unchecked Sendable {
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  public init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  public func wait() -> Data {
    done.wait()
    return data
  }
}
