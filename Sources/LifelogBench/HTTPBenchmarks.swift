@preconcurrency import Glibc
import LifelogCore
import LifelogProtocol
import LifelogSync
import Synchronization

/// The HTTP figures of the HTTP sync issue, against a real `lifelog serve` that the benchmark
/// starts on a free loopback port: a first pull of 100,000 entries and a sync with nothing to do
/// (both the whole `lifelog sync` process, as cron runs it), and the server under the load of 50
/// clients pushing 50-change batches and pulling.
extension BenchmarkSuite {
  static let httpPullRuns = 3
  static let loadClients = 50
  /// Clients per user: each client pulls what the other devices of its user pushed.
  static let loadDevicesPerUser = 2
  static let loadRowsPerBatch = 50
  static let loadWarmupSeconds = 1.0
  static let loadSeconds = 4.0

  func runHTTP(report: (Figure) -> Void) throws {
    try runHTTPClient(report: report)
    try runHTTPLoad(report: report)
  }

  // MARK: - Client figures

  /// `http_first_pull_100k_s` and `http_noop_sync_ms`, against a server with the default limits.
  func runHTTPClient(report: (Figure) -> Void) throws {
    let data = folder + "/http-server"
    let tokenPath = folder + "/http.token"
    try writeToken(try addServerUser("bench", data: data), to: tokenPath)
    let server = try BenchServer(lifelog: lifelog, data: data, log: folder + "/http-server.log")
    defer { server.stop() }
    Log.info("http: lifelog serve listening on \(server.url)")

    let entries = SampleLog.entries(
      count: Self.entryCount, endingAt: BenchmarkSuite.now() - 60, seed: 0x5EED)
    let pusher = folder + "/http-push.db"
    try buildLog(at: pusher, with: entries)
    try lifelogCommand(
      ["remote", "add", "s", server.url, "--token-file", tokenPath], database: pusher
    ).check()
    sync()
    let push = try lifelogCommand(["sync", "--quiet"], database: pusher).timedRun()
    Log.info("http: first push of \(Self.entryCount) entries took \(ms(push))")

    var pullTimes: [Double] = []
    var peak = 0
    for run in 1...Self.httpPullRuns {
      let puller = folder + "/http-pull-\(run).db"
      try lifelogCommand(
        ["remote", "add", "s", server.url, "--token-file", tokenPath], database: puller
      ).check()
      sync()
      let (seconds, bytes) = try timedFirstPull(puller)
      pullTimes.append(seconds)
      peak = max(peak, bytes)
      Log.info("http: first pull run \(run): \(ms(seconds)), peak \(bytes >> 20) MiB")
    }
    report(
      Figure(
        name: "http_first_pull_100k_s", value: Samples(pullTimes).median, unit: "s",
        goal: .atMost(4), decimals: 3))

    let noop = try latency(
      "http_noop_sync_ms", of: lifelogCommand(["sync", "--quiet"], database: pusher),
      runs: Self.quickSyncRuns)
    let limited = server.logLines(containing: " 429 ")
    if limited > 0 {
      Log.info("http: warning: the server answered 429 \(limited) times; the figures include waits")
    }
    report(
      Figure(
        name: "http_noop_sync_ms", value: noop.median * 1e3, unit: "ms", goal: .atMost(30),
        decimals: 2))
  }

  // MARK: - Helpers

  /// `lifelog serve user add NAME --data DIR`; returns the token it printed.
  func addServerUser(_ name: String, data: String) throws -> String {
    try addServerUser(name, store: ["--data", data])
  }

  /// `lifelog serve user add NAME` with `store` (`--data DIR` or `--store URL`).
  func addServerUser(_ name: String, store: [String]) throws -> String {
    let command = ChildCommand(
      executable: lifelog, arguments: ["serve", "user", "add", name] + store,
      environment: ["HOME": folder, "PATH": "/usr/bin:/bin"])
    let token = String(decoding: try command.capturedOutput(discardingErrors: true), as: UTF8.self)
      .filter { !$0.isWhitespace }
    guard token.hasPrefix("llt_") else {
      throw BenchmarkError("'\(command.commandLine)' printed no token")
    }
    return token
  }

  func writeToken(_ token: String, to path: String) throws {
    do {
      try LocalFile.write(Array((token + "\n").utf8), to: path)
    } catch {
      throw BenchmarkError("cannot write '\(path)': \(error.reason)")
    }
  }
}
