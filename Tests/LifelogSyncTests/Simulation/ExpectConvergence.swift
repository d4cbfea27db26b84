import Testing

extension ConvergenceSimulation {
  /// Runs `plan` and expects every machine to reach the same log as the independent oracle, with
  /// syncs and writes actually made: the check every simulation test (folder, server, encrypted,
  /// two servers) shares.
  @discardableResult
  static func expectConvergence(
    _ plan: SimulationPlan, sourceLocation: SourceLocation
  ) throws -> SimulationOutcome {
    let outcome: SimulationOutcome
    do {
      outcome = try ConvergenceSimulation(plan: plan).run()
    } catch {
      Issue.record("\(plan): the simulation stopped: \(error)", sourceLocation: sourceLocation)
      throw error
    }
    #expect(
      outcome.problems.isEmpty,
      "\(plan); \(outcome.summary):\n\(outcome.problems.joined(separator: "\n"))",
      sourceLocation: sourceLocation)
    #expect(
      outcome.syncs > 0 && outcome.writes > 0, "\(plan): \(outcome.summary)",
      sourceLocation: sourceLocation)
    return outcome
  }
}
