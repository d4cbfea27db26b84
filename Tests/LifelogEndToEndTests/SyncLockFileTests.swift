import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// A sync whose lock file beside the log cannot be made fails as a local fault, never as the
/// remote's.
///
/// Exit 73 (or 74 when the disk fails), a message naming the lock file and what to do, and
/// nothing changed. A script that retries an unavailable remote (69) would retry for ever.
/// Through the real binary, with a folder remote that is fine throughout.
@Suite struct SyncLockFileTests {
  let folder = TemporaryDirectory(prefix: "lifelog-sync-lock")
  var remote: String { folder.file("usb/lifelog") }

  /// A machine with one entry and the remote joined.
  private func machine() throws -> SyncMachine {
    let laptop = SyncMachine("laptop", in: folder)
    _ = try laptop.add("snack", "apple")
    try laptop.expectSuccess("remote", "add", "usb", remote)
    return laptop
  }

  /// The batches on the remote: a refused sync pushes none.
  private func remoteBatches() -> [String] {
    let devices = remote + "/devices"
    let enumerator = FileManager.default.enumerator(atPath: devices)
    return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".batch") }
  }

  private func expectLocalFailure(
    _ result: CommandResult, code: Int32, lock: String, saying problem: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(result.exitCode == code, "\(result)", sourceLocation: sourceLocation)
    #expect(
      result.stderr.hasPrefix("Error: Cannot use the lock file '\(lock)' beside the log: "),
      "\(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(problem), "\(result)", sourceLocation: sourceLocation)
    #expect(
      result.stderr.contains("nothing was changed"), "\(result)", sourceLocation: sourceLocation)
    #expect(!result.stderr.contains("remote"), "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
  }

  @Test func aLinkPlantedAtTheLockFileExits73AndIsNotFollowed() throws {
    let laptop = try machine()
    let lock = laptop.databasePath + ".sync-lock"
    let target = folder.file("elsewhere")
    try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: target)
    let before = remoteBatches()
    let result = try laptop.run("sync")
    expectLocalFailure(result, code: 73, lock: lock, saying: "it is a symbolic link")
    #expect(result.stderr.contains("remove what is at that path"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: target), "the link was followed")
    #expect(remoteBatches() == before)
    try FileManager.default.removeItem(atPath: lock)
    try laptop.expectSuccess("sync")
  }

  @Test(arguments: ["folder", "FIFO"])
  func somethingElseThanAFileAtTheLockExits73(_ kind: String) throws {
    let laptop = try machine()
    let lock = laptop.databasePath + ".sync-lock"
    if kind == "folder" {
      try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
    } else {
      try #require(mkfifo(lock, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
    }
    let before = remoteBatches()
    let result = try laptop.run("sync")
    expectLocalFailure(result, code: 73, lock: lock, saying: "not a regular file")
    #expect(remoteBatches() == before)
  }

  /// libfiu fails every `open` with EIO: the lock is the first file a sync opens, so it is the
  /// one that fails, and the disk is blamed (74), not the remote.
  @Test(.enabled(if: FaultInjection.isAvailable, "libfiu (fiu-utils) is not installed"))
  func anIOErrorOpeningTheLockFileExits74() throws {
    let laptop = try machine()
    let lock = laptop.databasePath + ".sync-lock"
    let before = remoteBatches()
    let result = try FaultInjection.run(
      ["sync"], failing: [FaultInjection.failing("posix/io/oc/open")],
      environment: laptop.environment)
    expectLocalFailure(result, code: 74, lock: lock, saying: "Input/output error")
    #expect(result.stderr.contains("(see `dmesg`)"), "\(result)")
    #expect(remoteBatches() == before)
    try laptop.expectSuccess("sync")
  }
}
