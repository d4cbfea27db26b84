import LifelogCore

extension Context {
  /// Runs `body` against the log in one transaction recorded as one `lifelog undo` step.
  func recordingStep<T>(_ description: String, _ body: (LogStore) throws -> T) throws -> T {
    let store = try store
    return try store.recordingUndoStep({ _ in description }) { try body(store) }
  }
}
