import Foundation
import LifelogTestSupport
import Testing

/// The convergence simulation (``ConvergenceSimulation``) with the devices meeting at a real
/// `lifelog serve` on 127.0.0.1 instead of copies of a folder: the same random operations,
/// skewed clocks, interrupted syncs, reopened logs and compactions, the same per-field
/// last-writer-wins oracle, but every sync goes through ``HTTPRemote`` to the server process.
///
/// 20 seeds by default (seeds 1–20); `LIFELOG_HTTP_SIMULATION_SEEDS=N` runs seeds 1–N, and
/// `LIFELOG_SIMULATION_SEED=S` replays one.
@Suite struct HTTPConvergenceSimulationTests {
  static let seeds: [UInt64] = {
    let environment = ProcessInfo.processInfo.environment
    if let seed = environment["LIFELOG_SIMULATION_SEED"].flatMap(UInt64.init) { return [seed] }
    let count = environment["LIFELOG_HTTP_SIMULATION_SEEDS"].flatMap(Int.init) ?? 20
    return Array(1...UInt64(max(1, count)))
  }()

  @Test(arguments: seeds)
  func devicesSyncingThroughAServerEndWithTheLastWriterOfEveryField(seed: UInt64) throws {
    var plan = SimulationPlan.standard(seed: seed)
    plan.devices = min(plan.devices, 4)
    plan.compaction = 0.15
    try expectConvergence(plan)
  }

  @Test func aLongRunWithCompactionAndAnAbsentDeviceConverges() throws {
    let plan = SimulationPlan(
      seed: 7_101, devices: 4, steps: 1_000, compaction: 0.05, longAbsence: true)
    let outcome = try expectConvergence(plan)
    // The seed is fixed, so each of these is certain: the run went through them.
    #expect(outcome.snapshotsWritten > 0, "no snapshot was written")
    #expect(outcome.snapshotsMerged > 0, "no snapshot was merged")
    #expect(outcome.interruptedSyncs > 0, "no sync ran out of time")
  }

  /// Two `lifelog serve` processes on one PostgreSQL database, each sync going to either at
  /// random: no batch committed through one is missed by a client pulling from the other.
  @Test(.enabled(if: PostgresCluster.isInstalled, "PostgreSQL is not installed"))
  func devicesSyncingThroughTwoServersOnOnePostgreSQLConverge() throws {
    try expectConvergenceThroughTwoServers(
      SimulationPlan(seed: 8_201, devices: 4, steps: 600, compaction: 0.15, longAbsence: false),
      killingOneAfter: nil)
  }

  /// The same, with one server killed (SIGKILL) part way through, requests in flight, and
  /// started again: nothing it acknowledged is lost.
  @Test(.enabled(if: PostgresCluster.isInstalled, "PostgreSQL is not installed"))
  func aServerKilledMidRunLosesNothingItAcknowledged() throws {
    try expectConvergenceThroughTwoServers(
      SimulationPlan(seed: 8_202, devices: 4, steps: 600, compaction: 0.15, longAbsence: false),
      killingOneAfter: 80)
  }

  private func expectConvergenceThroughTwoServers(
    _ plan: SimulationPlan, killingOneAfter requests: Int?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let directory = SimulationDirectory()
    let store = try PostgresCluster.shared().newDatabase()
    func start(_ name: String, port: Int = 0) throws -> ServerProcess {
      try ServerProcess(
        dataFolder: directory.file(name), port: port, arguments: ["--rate-limit", "0"],
        storeURL: store)
    }
    let first = try start("server-1")
    let second = try start("server-2")
    var plan = plan
    plan.meeting = .servers(
      urls: [first.baseURL, second.baseURL], token: try first.addUser("simulation"),
      seed: plan.seed)
    let restarted = ServerRestart()
    if let requests {
      // Kill the second server once it has answered `requests` requests, then start it again
      // where its clients expect it.
      let folder = directory.file("server-2-again")
      Thread.detachNewThread {
        while second.process.isRunning,
          second.log.split(separator: "\n").count < requests
        {
          usleep(5_000)
        }
        second.kill()
        restarted.server = try? ServerProcess(
          dataFolder: folder, port: second.port, arguments: ["--rate-limit", "0"], storeURL: store)
      }
    }
    defer {
      first.terminate()
      second.terminate()
      restarted.server?.terminate()
    }
    let outcome = try expectConvergence(
      plan, servers: [first, second], sourceLocation: sourceLocation)
    if requests != nil {
      #expect(!second.process.isRunning, "the second server was never killed: \(outcome.summary)")
      #expect(restarted.server != nil, "the second server did not start again")
    }
  }

  /// Starts a server of its own for the plan (data in RAM where it can), runs the simulation
  /// through it with a fresh user, and expects no problem.
  @discardableResult
  private func expectConvergence(
    _ plan: SimulationPlan, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> SimulationOutcome {
    let directory = SimulationDirectory()
    // The devices sync back to back; the rate limit would only make them wait.
    let server = try ServerProcess(
      dataFolder: directory.file("server"), arguments: ["--rate-limit", "0"])
    defer { server.terminate() }
    var plan = plan
    plan.meeting = .server(url: server.baseURL, token: try server.addUser("simulation"))
    return try expectConvergence(plan, servers: [server], sourceLocation: sourceLocation)
  }

  /// Runs the simulation through `servers` and expects no problem and no failed request.
  private func expectConvergence(
    _ plan: SimulationPlan, servers: [ServerProcess], sourceLocation: SourceLocation
  ) throws -> SimulationOutcome {
    print("\(plan)")
    let outcome = try ConvergenceSimulation.expectConvergence(plan, sourceLocation: sourceLocation)
    let requests = servers.map { $0.log.split(separator: "\n").count }.reduce(0, +)
    print("seed \(plan.seed): \(outcome.summary); \(requests) requests to the server(s)")
    for server in servers {
      #expect(
        !server.log.contains(" 500 "), "the server failed a request:\n\(server.log)",
        sourceLocation: sourceLocation)
    }
    return outcome
  }
}

/// The server started again after the kill, set on another thread.
private final class ServerRestart: @unchecked Sendable {
  private let lock = NSLock()
  private var started: ServerProcess?
  var server: ServerProcess? {
    get { lock.withLock { started } }
    set { lock.withLock { started = newValue } }
  }
}
