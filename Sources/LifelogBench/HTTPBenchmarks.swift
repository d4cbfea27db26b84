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
      let (seconds, bytes) = try lifelogCommand(["sync", "--quiet"], database: puller)
        .timedRunWithMemory()
      pullTimes.append(seconds)
      peak = max(peak, bytes)
      let count = try LogStore(path: puller).entryCount()
      guard count == Self.entryCount else {
        throw BenchmarkError(
          "the pulling log holds \(count) entries after its first sync, not \(Self.entryCount)")
      }
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

  // MARK: - Load

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
    let descriptor = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw BenchmarkError("cannot write '\(path)'") }
    defer { close(descriptor) }
    let bytes = Array((token + "\n").utf8)
    guard write(descriptor, bytes, bytes.count) == bytes.count else {
      throw BenchmarkError("cannot write '\(path)'")
    }
  }
}

// MARK: - The server

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
    kill(pid, SIGTERM)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
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

// MARK: - The load generator

/// The batches one load client pushes: batch `seq` of its device, for any `seq` up to `count`,
/// each `rows` new entries.
///
/// Every batch of a client holds the same rows (the server stores bytes; it never merges them),
/// so only the header and the trailer with its SHA-256 differ: they are made before the clock
/// starts, and a push only concatenates.
struct LoadBatches {
  let count: Int
  private let rows: [UInt8]
  private let headers: [[UInt8]]
  private let trailers: [[UInt8]]

  init(device: String, count: Int, rows: Int, random: inout SplitMix64) throws {
    let activity = ActivityName.derivedID(for: "snack")
    let start: Int64 = 1_780_000_000_000
    let changes = (0..<rows).map { index -> RowChange in
      let milliseconds = start + Int64(index)
      let stamp = Stamp.make(milliseconds: milliseconds, counter: 0, device: device)
      let values: [FieldValue] = [
        .text(activity), .time(LoggedTime(instant: milliseconds / 1000, offsetMinutes: 60)),
        index % 5 == 0 ? .integer(600) : .null,
        index % 3 == 0 ? .text("load test entry \(index)") : .null,
        .null, .tags(index % 4 == 0 ? ["load"] : []), .null, .flag(false),
      ]
      return RowChange(
        entity: .entry, id: UUIDText.random(using: &random), values: values,
        stamps: FieldStamps(count: values.count, stamp: stamp))
    }
    let first = BatchCodec.encode(Batch(device: device, seq: 1, created: start, changes: changes))
    guard let headerEnd = first.firstIndex(of: 0x0A),
      let trailerStart = first.dropLast().lastIndex(of: 0x0A)
    else { throw BenchmarkError("a batch without lines") }
    let header = String(decoding: first[...headerEnd], as: UTF8.self)
    let trailer = String(decoding: first[(trailerStart + 1)...], as: UTF8.self)
    self.rows = Array(first[(headerEnd + 1)...trailerStart])
    let digest = SHA256.hexDigest(Array(first[...trailerStart]))
    var headers: [[UInt8]] = []
    var trailers: [[UInt8]] = []
    for seq in 1...count {
      let line = Array(header.replacing("\"seq\":1,", with: "\"seq\":\(seq),").utf8)
      headers.append(line)
      trailers.append(
        Array(trailer.replacing(digest, with: SHA256.hexDigest(line + self.rows)).utf8))
    }
    self.headers = headers
    self.trailers = trailers
    self.count = count
    // The server refuses a batch that does not verify; check a few here rather than count 400s.
    for seq in [1, count] {
      guard let batch = try? BatchCodec.decode(body(seq: seq)), batch.seq == seq,
        batch.changes.count == rows
      else {
        throw BenchmarkError("load batch \(seq) of \(device) does not decode")
      }
    }
  }

  /// The bytes of batch `seq` (from 1).
  func body(seq: Int) -> [UInt8] {
    headers[seq - 1] + rows + trailers[seq - 1]
  }
}

/// One client of the load: a thread with one keep-alive HTTP/1.1 connection on a blocking socket,
/// alternating a push and a pull until the window ends or its batches run out.
final class LoadClient: @unchecked Sendable {
  /// When the clients start, warm up, are measured and stop (monotonic nanoseconds).
  struct Window {
    let start: UInt64
    var measureFrom: UInt64 { start + UInt64(BenchmarkSuite.loadWarmupSeconds * 1e9) }
    var end: UInt64 { measureFrom + UInt64(BenchmarkSuite.loadSeconds * 1e9) }
  }

  let port: Int
  let token: String
  let device: String
  private let batchCount: Int
  private let rows: Int
  private let seed: UInt64
  private var batches: LoadBatches?
  private(set) var failures: [String] = []
  private(set) var pushes = 0
  private(set) var pulledBatches = 0
  /// When the client stopped early for want of batches (nil when the window ended first).
  private(set) var stoppedAt: UInt64?
  /// Start and end (monotonic ns) of every answered request.
  private var starts: [UInt64] = []
  private var ends: [UInt64] = []
  private var gate: LoadGate?

  init(port: Int, token: String, device: String, batches: Int, rows: Int, seed: UInt64) {
    self.port = port
    self.token = token
    self.device = device
    batchCount = batches
    self.rows = rows
    self.seed = seed
    starts.reserveCapacity(2 * batches + 16)
    ends.reserveCapacity(2 * batches + 16)
  }

  func answered(between from: UInt64, and to: UInt64) -> Int {
    ends.count(where: { $0 >= from && $0 < to })
  }

  /// Latencies in seconds of the requests started in the window.
  func latencies(startedBetween from: UInt64, and to: UInt64) -> [Double] {
    zip(starts, ends).filter { $0.0 >= from && $0.0 < to }.map { Double($0.1 - $0.0) / 1e9 }
  }

  /// Runs every client on its own thread and waits for all of them.
  ///
  /// - Parameter measure: read when the last client is ready (CPU times, say).
  /// - Returns: when they started, all together, once every one had built its batches, and what
  ///   `measure` read then.
  static func runAll<Reading: Sendable>(
    _ clients: [LoadClient], measure: @escaping @Sendable () -> Reading
  ) -> (start: UInt64, reading: Reading) {
    let reading = Mutex<Reading?>(nil)
    let gate = LoadGate(clients: clients.count) { reading.withLock { $0 = measure() } }
    var threads: [pthread_t] = []
    for client in clients {
      client.gate = gate
      var thread = pthread_t()
      let context = Unmanaged.passRetained(client).toOpaque()
      let created = pthread_create(
        &thread, nil,
        { context in
          if let context { Unmanaged<LoadClient>.fromOpaque(context).takeRetainedValue().run() }
          return nil
        }, context)
      if created == 0 {
        threads.append(thread)
      } else {
        Unmanaged<LoadClient>.fromOpaque(context).release()
        client.failures.append("cannot start a thread: \(String(cString: strerror(created)))")
        _ = gate.ready()
      }
    }
    for thread in threads { pthread_join(thread, nil) }
    let start = gate.ready()
    return (start, reading.withLock { $0 } ?? measure())
  }

  private func run() {
    var random = SplitMix64(seed: seed)
    do {
      batches = try LoadBatches(device: device, count: batchCount, rows: rows, random: &random)
    } catch {
      failures.append("\(error)")
    }
    let window = Window(start: gate?.ready() ?? 0)
    guard let batches else { return }
    while MonotonicClock.nanoseconds() < window.start { usleep(1_000) }
    var connection: HTTPConnection?
    var cursor = ""
    var next = 0
    var pushing = true
    while MonotonicClock.nanoseconds() < window.end {
      if pushing && next == batches.count {
        stoppedAt = MonotonicClock.nanoseconds()
        break
      }
      let request: [UInt8]
      if pushing {
        let body = batches.body(seq: next + 1)
        request =
          Array(
            ("PUT /v1/batches/\(device)/\(next + 1) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
              + "Content-Type: application/vnd.lifelog.batch\r\nContent-Length: \(body.count)\r\n\r\n")
              .utf8) + body
      } else {
        request = Array(
          ("GET /v1/changes?after=\(cursor)&exclude=\(device)&limit=100 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Authorization: Bearer \(token)\r\n\r\n").utf8)
      }
      do {
        if connection == nil { connection = try HTTPConnection(port: port) }
        guard let open = connection else { break }
        let started = MonotonicClock.nanoseconds()
        let response = try open.exchange(request)
        let finished = MonotonicClock.nanoseconds()
        if response.close { connection = nil }
        guard response.status == (pushing ? 201 : 200) else {
          failures.append(
            "\(pushing ? "push" : "pull") answered \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))"
          )
          break
        }
        starts.append(started)
        ends.append(finished)
        if pushing {
          pushes += 1
          next += 1
        } else if let index = LoadClient.index(of: response.body) {
          cursor = index.cursor
          pulledBatches += index.batches
        }
        pushing.toggle()
      } catch {
        failures.append("\(error)")
        break
      }
    }
  }

  /// The `cursor` and the number of batches in the index line of a page of changes.
  static func index(of body: [UInt8]) -> (cursor: String, batches: Int)? {
    let line = body.prefix { $0 != 0x0A }
    guard let json = try? JSONValue.parse(line), let cursor = json["cursor"]?.string,
      case .array(let batches)? = json["batches"]
    else { return nil }
    return (cursor, batches.count)
  }
}

/// Starts the clients together: each says when its batches are built; the last one sets the
/// start 100 ms later.
final class LoadGate: Sendable {
  private let state: Mutex<(waiting: Int, start: UInt64?)>
  private let whenReady: @Sendable () -> Void

  /// - Parameter whenReady: called once, by the last client to be ready.
  init(clients: Int, whenReady: @escaping @Sendable () -> Void) {
    state = Mutex((clients, nil))
    self.whenReady = whenReady
  }

  /// Says one client is ready (after the first call per client, it only waits) and returns the
  /// start once every client is.
  func ready() -> UInt64 {
    let last = state.withLock { state -> Bool in
      guard state.start == nil else { return false }
      state.waiting -= 1
      return state.waiting <= 0
    }
    if last {
      whenReady()
      state.withLock { $0.start = MonotonicClock.nanoseconds() + 100_000_000 }
    }
    while true {
      if let start = state.withLock({ $0.start }) { return start }
      usleep(1_000)
    }
  }
}

/// CPU seconds (user and system) used so far.
enum CPUTime {
  static func ofThisProcess() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// Of another process, from `/proc/PID/stat` (utime and stime, fields 14 and 15); 0 when unreadable.
  static func of(_ pid: pid_t) -> Double {
    guard let file = fopen("/proc/\(pid)/stat", "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 1024)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
    let line = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // Fields after the command name, which is in parentheses and may hold spaces: state is 3rd.
    guard let close = line.lastIndex(of: ")") else { return 0 }
    let fields = line[line.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return 0
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  private static func seconds(_ time: timeval) -> Double {
    Double(time.tv_sec) + Double(time.tv_usec) / 1e6
  }
}

/// One HTTP/1.1 keep-alive connection on a blocking socket to 127.0.0.1: enough of the protocol
/// for `lifelog serve`'s answers (a status line, headers, a `Content-Length` body).
final class HTTPConnection {
  struct Response {
    let status: Int
    let body: [UInt8]
    /// The server will close the connection (`Connection: close`).
    let close: Bool
  }

  private let socket: Int32
  private var buffer: [UInt8] = []

  init(port: Int) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw BenchmarkError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(socket)
      throw BenchmarkError("cannot connect to 127.0.0.1:\(port): \(reason)")
    }
    var on: Int32 = 1
    setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
  }

  deinit { Glibc.close(socket) }

  /// Sends one request and reads its whole answer.
  func exchange(_ request: [UInt8]) throws -> Response {
    var offset = 0
    while offset < request.count {
      let sent = request[offset...].withUnsafeBytes {
        send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0, errno == EINTR { continue }
      guard sent > 0 else { throw BenchmarkError("send: \(String(cString: strerror(errno)))") }
      offset += sent
    }
    let headerEnd = try readUntilHeadersEnd()
    let head = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
    let lines = head.split(separator: "\r\n")
    guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
      let status = Int(statusLine.dropFirst(9).prefix(3))
    else { throw BenchmarkError("not an HTTP/1.1 answer: \(head.prefix(100))") }
    var length = 0
    var close = false
    for line in lines.dropFirst() {
      let lower = line.lowercased()
      if lower.hasPrefix("content-length:") {
        length = Int(lower.dropFirst(15).filter(\.isNumber)) ?? 0
      } else if lower.hasPrefix("transfer-encoding:") {
        throw BenchmarkError("a chunked answer, which this client does not read")
      } else if lower.hasPrefix("connection:"), lower.contains("close") {
        close = true
      }
    }
    let bodyStart = headerEnd + 4
    while buffer.count < bodyStart + length { try fill() }
    let body = Array(buffer[bodyStart..<(bodyStart + length)])
    buffer.removeFirst(bodyStart + length)
    return Response(status: status, body: body, close: close)
  }

  /// Reads until the buffer holds `\r\n\r\n`; returns where it starts.
  private func readUntilHeadersEnd() throws -> Int {
    var searchFrom = 0
    while true {
      if buffer.count >= 4 {
        for index in searchFrom...(buffer.count - 4)
        where buffer[index] == 0x0D && buffer[index + 1] == 0x0A && buffer[index + 2] == 0x0D
          && buffer[index + 3] == 0x0A
        {
          return index
        }
        searchFrom = buffer.count - 3
      }
      try fill()
    }
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw BenchmarkError("the server closed the connection") }
      buffer.append(contentsOf: chunk[0..<count])
      return
    }
  }
}
