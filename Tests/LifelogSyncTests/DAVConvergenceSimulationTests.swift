import Foundation
@preconcurrency import Glibc
import LifelogTestSupport
import Testing

/// The convergence simulation (``ConvergenceSimulation``) with the devices meeting at a real
/// WebDAV server on 127.0.0.1 (Apache mod_dav and rclone): the same random operations, skewed
/// clocks, interrupted syncs, reopened logs and compactions and the same oracle, every sync
/// through ``DAVRemote``; once with the server killed (SIGKILL) and started again mid-run.
@Suite struct DAVConvergenceSimulationTests {
  static let kinds = DAVServer.Kind.allCases.filter(DAVServer.isAvailable)

  @Test(arguments: kinds, [UInt64(1), 2, 3])
  func devicesSyncingThroughWebDAVConverge(_ kind: DAVServer.Kind, seed: UInt64) throws {
    var plan = SimulationPlan.standard(seed: seed)
    plan.devices = min(plan.devices, 3)
    plan.compaction = 0.15
    let server = try DAVServer(kind)
    try server.makeFolder("alice")
    plan.meeting = .dav(
      url: server.baseURL + "/alice/lifelog", token: server.user + ":" + server.password)
    print("\(plan)")
    let outcome = try ConvergenceSimulation.expectConvergence(
      plan, sourceLocation: #_sourceLocation)
    print("seed \(seed) through \(kind): \(outcome.summary)")
  }

  /// The server is killed once it holds `files` files, and started again on the same port and
  /// files: the devices' requests retry within their deadline, and the run converges.
  @Test(arguments: kinds)
  func aServerRestartedMidRunLosesNothing(_ kind: DAVServer.Kind) throws {
    var plan = SimulationPlan(
      seed: 9_301, devices: 3, steps: 300, compaction: 0.1, longAbsence: false)
    let server = try DAVServer(kind)
    try server.makeFolder("alice")
    plan.meeting = .dav(
      url: server.baseURL + "/alice/lifelog", token: server.user + ":" + server.password)
    let restarts = Restarts()
    Thread.detachNewThread {
      while server.allFiles().count < 12 {
        if restarts.done { return }
        usleep(2_000)
      }
      server.kill()
      restarts.started = (try? server.start()) != nil
    }
    let outcome = try ConvergenceSimulation.expectConvergence(
      plan, sourceLocation: #_sourceLocation)
    restarts.done = true
    let started = restarts.started ?? false
    #expect(started, "the server was not killed and restarted mid-run")
    print("seed \(plan.seed) through \(kind), restarted: \(outcome.summary)")
  }
}

/// Whether the server came back, set on another thread.
private final class Restarts: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Bool?
  private var finished = false
  var done: Bool {
    get { lock.withLock { finished } }
    set { lock.withLock { finished = newValue } }
  }
  var started: Bool? {
    get { lock.withLock { value } }
    set { lock.withLock { value = newValue } }
  }
}
