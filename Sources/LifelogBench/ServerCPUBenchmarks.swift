@preconcurrency import Glibc
import LifelogCore
import LifelogSync

/// The server's CPU time per request, read from `/proc/PID/stat` before and after each phase: a
/// figure that the other load on a shared machine moves much less than latency or throughput.
///
/// One client on one keep-alive connection drives a real `lifelog serve --data DIR` (SQLite)
/// through three phases, each after a few untimed requests of its kind:
/// pushes of 50-row batches, no-op pulls (after the newest cursor: nothing to send), and pages of
/// changes of ``serverCPUPageBatches`` batches each (500 rows, as another device reads them).
extension BenchmarkSuite {
  static let serverCPUPushes = 1_000
  /// Many: a no-op pull costs about 20 µs, and the CPU time is read in ticks of 10 ms.
  static let serverCPUNoopPulls = 20_000
  static let serverCPUPages = 1_000
  static let serverCPUPageBatches = 10
  static let serverCPUWarmups = 20

  func runServerCPU(report: (Figure) -> Void) throws {
    let store = ["--data", folder + "/server-cpu"]
    let token = try addServerUser("cpu", store: store)
    let server = try BenchServer(
      lifelog: lifelog, data: folder, log: folder + "/server-cpu.log", store: store,
      arguments: ["--rate-limit", "0"])
    defer { server.stop() }
    let connection = try HTTPConnection(port: server.port)
    var random = SplitMix64(seed: 0xC0_FFEE)
    let device = UUIDText.random(using: &random)
    let reader = UUIDText.random(using: &random)
    let total = Self.serverCPUWarmups + Self.serverCPUPushes
    let batches = try LoadBatches(
      device: device, count: total, rows: Self.loadRowsPerBatch, random: &random)
    let exchange = ServerCPUClient(connection: connection, token: token)

    var seq = 0
    var cursor = ""
    let push = try exchange.measure(
      "server_cpu_push_us", pid: server.pid, count: Self.serverCPUPushes,
      warmups: Self.serverCPUWarmups
    ) {
      seq += 1
      let body = batches.body(seq: seq)
      let answer = try exchange.send(
        "PUT /v1/batches/\(device)/\(seq)", body: body, expecting: 201)
      cursor = ServerCPUClient.cursor(inPushAnswer: answer.body) ?? cursor
    }
    report(
      Figure(
        name: "server_cpu_push_us", value: push, unit: "us", goal: .atMost(660), decimals: 0))

    let noop = try exchange.measure(
      "server_cpu_noop_pull_us", pid: server.pid, count: Self.serverCPUNoopPulls,
      warmups: Self.serverCPUWarmups
    ) {
      let answer = try exchange.send(
        "GET /v1/changes?after=\(cursor)&exclude=\(reader)&limit=100", expecting: 200)
      guard let index = LoadClient.index(of: answer.body), index.batches == 0 else {
        throw BenchmarkError("a no-op pull after \(cursor) returned batches")
      }
    }
    report(
      Figure(
        name: "server_cpu_noop_pull_us", value: noop, unit: "us", goal: .atMost(13), decimals: 1))

    var after = ""
    let page = try exchange.measure(
      "server_cpu_page_us", pid: server.pid, count: Self.serverCPUPages,
      warmups: Self.serverCPUWarmups
    ) {
      let answer = try exchange.send(
        "GET /v1/changes?after=\(after)&exclude=\(reader)&limit=\(Self.serverCPUPageBatches)",
        expecting: 200)
      guard let index = LoadClient.index(of: answer.body),
        index.batches == Self.serverCPUPageBatches
      else { throw BenchmarkError("a page after '\(after)' did not hold 10 batches") }
      // Start over before the end, so every page is full (cursors here are plain numbers).
      let next = Int(index.cursor) ?? total
      after = next + Self.serverCPUPageBatches <= total ? index.cursor : ""
    }
    report(
      Figure(name: "server_cpu_page_us", value: page, unit: "us", goal: .atMost(330), decimals: 0))
  }
}

/// One keep-alive connection to the server, with its token, and CPU time measured around a phase.
struct ServerCPUClient {
  let connection: HTTPConnection
  let token: String

  /// Sends `request` (method and target) with `body`; throws unless the answer is `expecting`.
  func send(
    _ request: String, body: [UInt8] = [], expecting status: Int
  ) throws -> HTTPConnection.Response {
    var head =
      "\(request) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
    if !body.isEmpty {
      head +=
        "Content-Type: application/vnd.lifelog.batch\r\nContent-Length: \(body.count)\r\n"
    }
    let answer = try connection.exchange(Array((head + "\r\n").utf8) + body)
    guard answer.status == status else {
      throw BenchmarkError(
        "\(request) answered \(answer.status): "
          + String(decoding: answer.body.prefix(200), as: UTF8.self))
    }
    return answer
  }

  /// Runs `step` `warmups` times, then `count` times between two readings of the server's CPU
  /// time; returns the CPU microseconds per step.
  func measure(
    _ name: String, pid: pid_t, count: Int, warmups: Int, step: () throws -> Void
  ) throws -> Double {
    for _ in 0..<warmups { try step() }
    let cpuBefore = CPUTime.of(pid)
    let wallBefore = MonotonicClock.nanoseconds()
    for _ in 0..<count { try step() }
    let cpu = CPUTime.of(pid) - cpuBefore
    let wall = Double(MonotonicClock.nanoseconds() - wallBefore) / 1e9
    Log.info(
      "\(name): \(count) requests in \(Figure.fixed(wall, 2)) s, server CPU \(Figure.fixed(cpu, 2)) s "
        + "(\(Figure.fixed(cpu / wall, 2)) of a core)")
    return cpu / Double(count) * 1e6
  }

  /// The `cursor` of a push's answer (`{"device":…,"seq":…,"cursor":12,"status":"created"}`).
  static func cursor(inPushAnswer body: [UInt8]) -> String? {
    guard let json = try? JSONValue.parse(body[...]), let cursor = json["cursor"]?.integer else {
      return nil
    }
    return String(cursor)
  }
}
