import Foundation
import LifelogTestSupport
import Testing

/// Output that cannot be written ends the command with 74 and says so; a closed pipe
/// (`| head`) is what the reader wanted, and stays quiet with 0.
@Suite struct OutputFailureTests {
  let folder = TemporaryDirectory()
  var environment: [String: String] {
    ["LIFELOG_DB": folder.file("lifelog.db"), "TZ": "UTC", "LIFELOG_NOW": "2026-12-02T12:00:00Z"]
  }

  init() throws {
    var csv = "activity,at,note\n"
    for index in 0..<5_000 { csv += "snack,2026-11-01T10:00:00Z,apple \(index)\n" }
    try csv.write(toFile: folder.file("in.csv"), atomically: true, encoding: .utf8)
    let imported = try LifelogProcess.run(
      ["import", folder.file("in.csv")], environment: environment)
    #expect(imported.exitCode == 0, "\(imported)")
  }

  @Test(arguments: [
    "export", "export --format jsonl", "list --format json --limit 100000",
    "report --from 2026-11-01",
    "list --limit 100000",
  ])
  func standardOutputOnAFullDeviceIsAnIOError(command: String) throws {
    let result = try FaultInjection.shell(
      "$LIFELOG \(command) > /dev/full", environment: environment)
    #expect(result.exitCode == 74, "\(result)")
    #expect(
      result.stderr == "Error: Cannot write the output: the disk receiving it is full "
        + "(No space left on device); the output is incomplete. Free space and run again\n",
      "\(result)")
  }

  /// An add saved before its confirmation line failed says it was saved, so that nobody adds it
  /// twice; the log holds it once.
  @Test func anAddWhoseConfirmationCannotBeWrittenSaysItWasSaved() throws {
    let result = try FaultInjection.shell(
      "$LIFELOG add snack pear > /dev/full", environment: environment)
    #expect(result.exitCode == 74, "\(result)")
    #expect(
      result.stderr == "Error: Cannot write the output: the disk receiving it is full "
        + "(No space left on device); the output is incomplete, but the command's change to the "
        + "log was saved: do not run it again. Free space\n",
      "\(result)")
    let listed = try LifelogProcess.run(
      ["list", "--format", "json", "--activity", "snack", "--limit", "100000"],
      environment: environment)
    #expect(listed.stdout.components(separatedBy: "\"pear\"").count == 2, "\(listed)")
  }

  @Test(arguments: ["export", "list --limit 100000", "list --format json --limit 100000"])
  func aClosedPipeIsQuietAndSucceeds(command: String) throws {
    let result = try FaultInjection.shell(
      "$LIFELOG \(command) | head -c 10 > /dev/null; exit ${PIPESTATUS[0]}",
      environment: environment)
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stderr.isEmpty, "\(result)")
  }
}
