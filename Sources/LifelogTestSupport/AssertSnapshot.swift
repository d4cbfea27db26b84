import Foundation
import Testing

/// Compares `actual` with the golden file `Snapshots/<name>` beside the calling test file, or
/// writes the golden file when `RECORD_SNAPSHOTS=1` (or when it does not exist yet, which fails
/// the test so a new golden file is always looked at before it is trusted).
///
/// - Parameters:
///   - name: the file name inside `Snapshots/`, with its extension (`meals.txt`); a name with a
///     slash puts it in a subfolder (`Reports/meals.txt`).
///   - filePath: the test file, whose folder holds `Snapshots/`.
public func assertSnapshot(
  _ actual: String, named name: String, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(
    "Snapshots")
  assertGoldenFile(actual, at: folder.appendingPathComponent(name), sourceLocation: sourceLocation)
}

/// Compares `actual` with the file at `file`, or writes it when `RECORD_SNAPSHOTS=1` (or when it
/// does not exist yet, which fails the test): for generated files kept in the repository, such as
/// `docs/lifelog.1`, that must not go stale.
public func assertGoldenFile(
  _ actual: String, at file: URL, sourceLocation: SourceLocation = #_sourceLocation
) {
  let name = file.lastPathComponent
  let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
  let existing = try? String(contentsOf: file, encoding: .utf8)
  if recording || existing == nil {
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: file, atomically: true, encoding: .utf8)
    } catch {
      Issue.record("Cannot write snapshot \(file.path): \(error)", sourceLocation: sourceLocation)
      return
    }
    if existing == nil {
      Issue.record(
        "Recorded a new snapshot \(file.path); check it and run again",
        sourceLocation: sourceLocation)
    }
    return
  }
  guard let existing, existing != actual else { return }
  Issue.record(
    """
    Snapshot \(name) differs (re-record with RECORD_SNAPSHOTS=1 if the change is intended):
    \(firstDifference(existing, actual))
    """, sourceLocation: sourceLocation)
}

/// The first line where two texts differ, both versions shown.
private func firstDifference(_ expected: String, _ actual: String) -> String {
  let expectedLines = expected.components(separatedBy: "\n")
  let actualLines = actual.components(separatedBy: "\n")
  for index in 0..<max(expectedLines.count, actualLines.count) {
    let old = index < expectedLines.count ? expectedLines[index] : "(end of file)"
    let new = index < actualLines.count ? actualLines[index] : "(end of file)"
    if old != new { return "line \(index + 1):\n  expected: \(old)\n  actual:   \(new)" }
  }
  return "(the texts differ only in line endings)"
}
