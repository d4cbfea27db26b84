@preconcurrency import Glibc
import LifelogCore
import LifelogSync

/// The server under load: `http_load_requests_per_s` and `http_load_p99_ms`.
extension BenchmarkSuite {
  /// `http_load_requests_per_s` and `http_load_p99_ms`: the server under 50 clients.
  func runHTTPLoad(report: (Figure) -> Void) throws {
    let load = try measureLoad(
      label: "http_load", store: ["--data", folder + "/http-load-server"], servers: 1)
    report(
      Figure(
        name: "http_load_requests_per_s", value: load.requestsPerSecond, unit: "requests/s",
        goal: .atLeast(5_000), decimals: 0))
    report(
      Figure(
        name: "http_load_p99_ms", value: load.p99 * 1e3, unit: "ms", goal: .atMost(50),
        decimals: 2))
  }

  /// What one load run measured: requests answered per second, latency percentiles in seconds.
  struct LoadResult {
    var requestsPerSecond: Double
    var p50: Double
    var p99: Double
  }

  /// Runs 50 clients against `servers` `lifelog serve` processes sharing `store` (`--data DIR`
  /// or `--store URL`), the clients split evenly among them, as a reverse proxy would.
  ///
  /// Each client has its own keep-alive connection and alternates a push of its next 50-change
  /// batch and a pull of what the other device of its user pushed since its last pull. Counted:
  /// the requests answered in the measuring window after a warm-up; p50 and p99 of the latency
  /// (request written to answer read) of the requests started in it.
  func measureLoad(label: String, store: [String], servers count: Int) throws -> LoadResult {
    let users = Self.loadClients / Self.loadDevicesPerUser
    var tokens: [String] = []
    for user in 0..<users { tokens.append(try addServerUser("load\(user)", store: store)) }
    // The rate limit is per token and would cap this at 100 requests/s a user; the figure is the
    // server's capacity.
    let servers = try (0..<count).map { index in
      try BenchServer(
        lifelog: lifelog, data: folder, log: folder + "/\(label)-server-\(index).log",
        store: store, arguments: ["--rate-limit", "0"])
    }
    defer { for server in servers { server.stop() } }
    // Enough batches for each client to make 400 requests/s (eight times the target's average: the
    // server does not serve every connection equally fast) all along; each client builds its own
    // before the clock starts. A client that runs out all the same ends the measuring window.
    let batchesPerClient = Int((Self.loadWarmupSeconds + Self.loadSeconds) * 200)
    Log.info(
      "\(label): \(Self.loadClients) clients, each building \(batchesPerClient) batches of \(Self.loadRowsPerBatch) "
        + "changes, then \(Self.loadWarmupSeconds) s of warm-up and \(Self.loadSeconds) s measured")
    var random = SplitMix64(seed: 0x10AD)
    let clients = (0..<Self.loadClients).map { index in
      LoadClient(
        port: servers[index % count].port, token: tokens[index / Self.loadDevicesPerUser],
        device: UUIDText.random(using: &random),
        batches: batchesPerClient, rows: Self.loadRowsPerBatch, seed: UInt64(index + 1))
    }
    let building = MonotonicClock.nanoseconds()
    let serverPIDs = servers.map(\.pid)
    let (start, cpuAtStart) = LoadClient.runAll(clients) {
      (CPUTime.ofThisProcess(), serverPIDs.map(CPUTime.of).reduce(0, +))
    }
    let cpuAtEnd = (CPUTime.ofThisProcess(), serverPIDs.map(CPUTime.of).reduce(0, +))
    let ran = Double(MonotonicClock.nanoseconds() - start) / 1e9
    Log.info(
      "\(label): building the batches took \(ms(Double(start - 100_000_000 - building) / 1e9)); "
        + "while the clients ran, they used \(Figure.fixed((cpuAtEnd.0 - cpuAtStart.0) / ran, 2)) cores "
        + "and the server(s) \(Figure.fixed((cpuAtEnd.1 - cpuAtStart.1) / ran, 2)) (of 2)")
    let window = LoadClient.Window(start: start)

    let failures = clients.flatMap(\.failures)
    if !failures.isEmpty {
      throw BenchmarkError(
        "\(label): \(failures.count) requests failed, the first: \(failures[0])")
    }
    // The window is cut short if a client ran out of batches.
    let measuredEnd =
      clients.compactMap(\.stoppedAt).min().map { min($0, window.end) } ?? window.end
    let seconds = Double(measuredEnd - window.measureFrom) / 1e9
    let answered = clients.reduce(0) {
      $0 + $1.answered(between: window.measureFrom, and: measuredEnd)
    }
    let latencies = clients.flatMap {
      $0.latencies(startedBetween: window.measureFrom, and: measuredEnd)
    }
    guard seconds > 0.5, !latencies.isEmpty else {
      throw BenchmarkError(
        "\(label): the measuring window was \(seconds) s with \(latencies.count) requests")
    }
    let samples = Samples(latencies)
    let perClient = clients.map(\.pushes)
    let exhausted = clients.compactMap(\.stoppedAt).count
    Log.info(
      "\(label): pushes per client \(perClient.min() ?? 0)–\(perClient.max() ?? 0); "
        + (exhausted == 0
          ? "none ran out of batches" : "\(exhausted) ran out of batches, which ended the window"))
    let pushes = clients.reduce(0) { $0 + $1.pushes }
    let pulled = clients.reduce(0) { $0 + $1.pulledBatches }
    Log.info(
      "\(label): \(answered) requests in \(Figure.fixed(seconds, 2)) s (\(pushes) pushes, \(pulled) batches pulled "
        + "in all); latency p50 \(ms(samples.median)), p90 \(ms(samples.percentile(0.9))), "
        + "p99 \(ms(samples.percentile(0.99))), max \(ms(samples.maximum))")
    return LoadResult(
      requestsPerSecond: Double(answered) / seconds, p50: samples.median,
      p99: samples.percentile(0.99))
  }
}
