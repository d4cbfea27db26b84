import Foundation

/// A real `lifelog serve` on 127.0.0.1 and a free port, for tests: started in `init`, stopped
/// with ``terminate()`` (SIGTERM) or ``kill()`` (SIGKILL), and stopped when it goes away.
public final class ServerProcess: @unchecked Sendable {
  public let process = Process()
  public let dataFolder: String
  /// How `lifelog serve` and `lifelog serve user` find the store: `--data dataFolder`, or on
  /// PostgreSQL `--store URL`.
  public let storeArguments: [String]
  /// Where the server's standard error (its request log) goes.
  public let logPath: String
  public private(set) var port = 0
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Starts `lifelog serve --listen 127.0.0.1:port --data dataFolder arguments…` and waits until
  /// it says where it listens.
  ///
  /// - Parameters:
  ///   - port: 0 for a free one; or the port of a server that was stopped, to start it
  ///     again where its clients expect it.
  ///   - storeURL: a PostgreSQL store to serve from instead of `dataFolder`. Without it, and
  ///     with `LIFELOG_TEST_STORE=postgres`, the store is the database of `dataFolder` in
  ///     ``PostgresCluster`` (the same folder always meets the same database).
  public init(
    dataFolder: String, port: Int = 0, arguments: [String] = [], storeURL: String? = nil,
    startTimeout: TimeInterval = 20
  ) throws {
    self.dataFolder = dataFolder
    if let storeURL {
      storeArguments = ["--store", storeURL]
    } else if PostgresCluster.selected {
      storeArguments = ["--store", try PostgresCluster.shared().database(forFolder: dataFolder)]
    } else {
      storeArguments = ["--data", dataFolder]
    }
    logPath = dataFolder + ".log"
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    process.executableURL = URL(fileURLWithPath: LifelogProcess.binaryPath)
    process.arguments =
      ["serve", "--listen", "127.0.0.1:\(port)"] + storeArguments + arguments
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let line = ServerProcess.firstLine(of: output.fileHandleForReading, timeout: startTimeout)
    guard let range = line.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
      let port = Int(line[range].split(separator: ":")[1])
    else {
      kill()
      throw ServerProcessError(message: "lifelog serve did not start: '\(line)'; its log: \(log)")
    }
    self.port = port
  }

  deinit {
    if process.isRunning { kill() } else { reap() }
  }

  /// Everything the server has logged so far.
  public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Sends SIGTERM and waits for the server to exit; returns its exit status.
  @discardableResult
  public func terminate(timeout: TimeInterval = 20) -> Int32? {
    guard process.isRunning else { return process.terminationStatus }
    Glibc.kill(process.processIdentifier, SIGTERM)
    return wait(timeout: timeout)
  }

  /// Sends SIGKILL and waits for the server to be gone.
  public func kill() {
    guard process.isRunning else { return }
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Waits for the server to exit by itself; nil when it is still running after `timeout`.
  public func wait(timeout: TimeInterval) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning { return nil }
    reap()
    return process.terminationStatus
  }

  /// Lets Foundation's `Process` go once it has ended.
  ///
  /// swift-corelibs-foundation's `Process.run()` keeps a run-loop source whose context retains
  /// the `Process`, in the `Process` itself: a cycle that only `waitUntilExit()` breaks (it
  /// clears the source). Polling `isRunning` never does, so without this every server that
  /// exited by ``terminate()`` or by itself kept its `Process`, `Pipe`s and `FileHandle`s
  /// (LeakSanitizer: about 2.4 KB in 20 objects a server). Returns at once when it has ended.
  private func reap() {
    process.waitUntilExit()
  }

  /// Whether it serves from PostgreSQL.
  public var usesPostgres: Bool { storeArguments.first == "--store" }

  /// `lifelog serve user add name` on this server's store; returns the token.
  public func addUser(_ name: String) throws -> String {
    let result = try LifelogProcess.run(["serve", "user", "add", name] + storeArguments)
    guard result.exitCode == 0 else {
      throw ServerProcessError(message: "user add failed: \(result)")
    }
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static func firstLine(of handle: FileHandle, timeout: TimeInterval) -> String {
    let reader = LineReader(handle)
    return reader.wait(timeout: timeout)
  }
}

public struct ServerProcessError: Error, CustomStringConvertible {
  public var message: String
  public init(message: String) { self.message = message }
  public var description: String { message }
}

/// Reads a pipe on another thread until its first newline.
///
/// `data` is behind `lock`: when ``wait(timeout:)`` times out, the reading thread may still be
/// appending to it, so the waiter takes a copy under the lock rather than reading it bare.
private final class LineReader: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        lock.withLock { data.append(chunk) }
        if chunk.contains(0x0A) { break }
      }
      done.signal()
    }
  }

  func wait(timeout: TimeInterval) -> String {
    _ = done.wait(timeout: .now() + timeout)
    let copy = lock.withLock { data }
    return String(decoding: copy, as: UTF8.self)
  }
}
