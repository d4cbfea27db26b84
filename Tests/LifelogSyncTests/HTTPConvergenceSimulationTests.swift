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
    print("seed \(plan.seed) through \(server.baseURL)")
    let outcome: SimulationOutcome
    do {
      outcome = try ConvergenceSimulation(plan: plan).run()
    } catch {
      Issue.record("\(plan): the simulation stopped: \(error)", sourceLocation: sourceLocation)
      throw error
    }
    let requests = server.log.split(separator: "\n").count
    print("seed \(plan.seed): \(outcome.summary); \(requests) requests to the server")
    #expect(
      outcome.problems.isEmpty,
      "\(plan); \(outcome.summary):\n\(outcome.problems.joined(separator: "\n"))",
      sourceLocation: sourceLocation)
    #expect(
      outcome.syncs > 0 && outcome.writes > 0, "\(plan): \(outcome.summary)",
      sourceLocation: sourceLocation)
    #expect(
      !server.log.contains(" 500 "), "the server failed a request:\n\(server.log)",
      sourceLocation: sourceLocation)
    return outcome
  }
}
