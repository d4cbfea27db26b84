import Foundation
import LifelogTestSupport
import Testing

/// A real full disk: a 2 MiB tmpfs mounted for the test.
///
/// `make test` runs as root; anywhere else the suite is skipped and says why. The log on it,
/// and an `--output` file on it.
@Suite(.enabled(if: SmallDisk.canMount, "not root: cannot mount a tmpfs to fill (run as root)"))
struct DiskFullTests {
  let disk: SmallDisk
  var environment: [String: String] {
    ["LIFELOG_DB": disk.path + "/lifelog.db", "TZ": "UTC", "LIFELOG_NOW": "2026-12-02T12:00:00Z"]
  }

  init() throws { disk = try SmallDisk() }

  @Test func aFullDiskSaysSoWithWhatIsFreeAndExits74() throws {
    let first = try LifelogProcess.run(["add", "snack", "apple"], environment: environment)
    #expect(first.exitCode == 0, "\(first)")
    try disk.fill()
    var result = CommandResult(exitCode: 0, stdout: "", stderr: "")
    // Each add may still find room in a page SQLite already has; a few fill what is left.
    for index in 0..<50 {
      result = try LifelogProcess.run(
        ["add", "snack", String(repeating: "pear \(index) ", count: 200)], environment: environment)
      if result.exitCode != 0 { break }
    }
    #expect(result.exitCode == 74, "\(result)")
    #expect(result.stderr.hasPrefix("Error: The disk holding the log '"), "\(result)")
    #expect(result.stderr.contains("is full") && result.stderr.contains("KB free"), "\(result)")
    #expect(result.stderr.contains("free space and run again"), "\(result)")
    #expect(!result.stderr.contains("SQLite"), "\(result)")
    disk.empty()
    let check = try LifelogProcess.run(["check"], environment: environment)
    #expect(check.exitCode == 0, "\(check)")
  }

  /// A sync whose merge fails for want of local space says so: the remote is not blamed.
  @Test func aFullLocalDiskIsNotBlamedOnTheRemote() throws {
    let elsewhere = TemporaryDirectory()
    let remote = elsewhere.file("remote")
    try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
    var other = environment
    other["LIFELOG_DB"] = elsewhere.file("desktop.db")
    var csv = "activity,at,note\n"
    for index in 0..<300 {
      csv += "snack,2026-11-01T10:00:00Z,\(String(repeating: "a", count: 300)) \(index)\n"
    }
    try csv.write(toFile: elsewhere.file("in.csv"), atomically: true, encoding: .utf8)
    for arguments in [
      ["remote", "add", "r", remote], ["import", elsewhere.file("in.csv")], ["sync"],
    ] {
      let result = try LifelogProcess.run(arguments, environment: other)
      #expect(result.exitCode == 0, "\(result)")
    }
    let joined = try LifelogProcess.run(["remote", "add", "r", remote], environment: environment)
    #expect(joined.exitCode == 0, "\(joined)")
    try disk.fill()
    let result = try LifelogProcess.run(["sync"], environment: environment)
    #expect(result.exitCode == 74, "\(result)")
    #expect(result.stderr.hasPrefix("Error: The disk holding the log '"), "\(result)")
    #expect(!result.stderr.contains("reachable") && !result.stderr.contains("SQLite"), "\(result)")
    disk.empty()
    let again = try LifelogProcess.run(["sync"], environment: environment)
    #expect(again.exitCode == 0, "\(again)")
  }

  @Test func anOutputFileOnAFullDiskIsAnIOErrorNotBadInput() throws {
    let elsewhere = TemporaryDirectory()
    var environment = environment
    environment["LIFELOG_DB"] = elsewhere.file("lifelog.db")
    var csv = "activity,at,note\n"
    for index in 0..<2_000 { csv += "snack,2026-11-01T10:00:00Z,apple \(index)\n" }
    try csv.write(toFile: elsewhere.file("in.csv"), atomically: true, encoding: .utf8)
    let imported = try LifelogProcess.run(
      ["import", elsewhere.file("in.csv")], environment: environment)
    #expect(imported.exitCode == 0, "\(imported)")
    try disk.fill()
    let result = try LifelogProcess.run(
      ["export", "--output", disk.path + "/export.csv"], environment: environment)
    #expect(result.exitCode == 74, "\(result)")
    #expect(result.stderr.contains("the disk holding it is full"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: disk.path + "/export.csv"))
  }

  /// libxlsxwriter stages the workbook beside the target; a full disk there is a write failure
  /// (74), and neither the target nor the staging folder is left behind.
  @Test func aSpreadsheetOnAFullDiskIsAnIOErrorAndLeavesNothing() throws {
    let elsewhere = TemporaryDirectory()
    var environment = environment
    environment["LIFELOG_DB"] = elsewhere.file("lifelog.db")
    var csv = "activity,at,note\n"
    for index in 0..<2_000 { csv += "snack,2026-11-01T10:00:00Z,apple \(index)\n" }
    try csv.write(toFile: elsewhere.file("in.csv"), atomically: true, encoding: .utf8)
    let imported = try LifelogProcess.run(
      ["import", elsewhere.file("in.csv")], environment: environment)
    #expect(imported.exitCode == 0, "\(imported)")
    try disk.fill()
    let result = try LifelogProcess.run(
      ["export", "--format", "xlsx", "--output", disk.path + "/export.xlsx"],
      environment: environment)
    #expect(result.exitCode == 74, "\(result)")
    #expect(result.stderr.hasPrefix("Error: Cannot write '\(disk.path)/export.xlsx'"), "\(result)")
    let left = try FileManager.default.contentsOfDirectory(atPath: disk.path)
    #expect(left == ["filler"], "\(left)")
  }
}

/// A 2 MiB tmpfs mounted on a fresh folder, unmounted when the value goes away.
final class SmallDisk: @unchecked Sendable {
  static var canMount: Bool { geteuid() == 0 }

  let folder = TemporaryDirectory()
  var path: String { folder.path }

  init() throws {
    let status = try ToolProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", path])
    guard status == 0 else { throw SmallDiskError(message: "mount exited \(status)") }
  }

  /// Fills the disk to its last byte with one file.
  func fill() throws {
    _ = try ToolProcess.run("/bin/dd", ["if=/dev/zero", "of=\(path)/filler", "bs=4096"])
  }

  func empty() { unlink(path + "/filler") }

  deinit { _ = try? ToolProcess.run("/bin/umount", ["-l", path]) }
}

struct SmallDiskError: Error {
  let message: String
}
