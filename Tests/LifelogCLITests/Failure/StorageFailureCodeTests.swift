import LifelogCore
import LifelogSQLite
import LifelogTestSupport
import Testing

@testable import LifelogCLI

/// Every SQLite result code a failing machine can cause is told in words with its sysexits code
/// (docs/cli.md), never "an unexpected error" (exit 1) with SQLite's text.
@Suite struct StorageFailureCodeTests {
  let folder = TemporaryDirectory()

  private func reported(
    _ code: Int32, message: String = "failed", errno: Int32 = 0
  )
    -> StorageFailureReport?
  {
    let context = Context(
      environment: ["LIFELOG_DB": folder.file("lifelog.db")], output: CapturedOutput(),
      errors: CapturedOutput(), outputIsTerminal: false, now: 0,
      zone: SystemTimeZone(identifier: "UTC"), zoneName: "UTC")
    return StorageFailureReport.make(
      SQLiteError(code: code, message: message, sql: "SELECT 1", systemErrno: errno),
      context: context)
  }

  /// `SQLITE_NOMEM` and `SQLITE_IOERR_NOMEM`: the system is short of memory; try again (75).
  @Test(arguments: [Int32(7), Int32(3082)])
  func outOfMemoryIsATemporaryFailure(code: Int32) throws {
    let report = try #require(reported(code, message: "out of memory"))
    #expect(report.code == 75)
    #expect(report.message.contains("ran out of memory"), "\(report.message)")
    #expect(report.message.contains("nothing was changed"), "\(report.message)")
    #expect(!report.message.contains("SQLite"), "\(report.message)")
  }

  /// `SQLITE_PROTOCOL`: SQLite could not get a steady view of the WAL in its tries; it passes.
  @Test func aLockingProtocolFailureIsATemporaryFailure() throws {
    let report = try #require(reported(15, message: "locking protocol"))
    #expect(report.code == 75)
    #expect(report.message.contains("nothing was changed"), "\(report.message)")
  }

  /// The other codes of a failing machine keep theirs: I/O (74), full (74), read-only (73).
  @Test func theDiskCodesKeepTheirExitCodes() throws {
    #expect(try #require(reported(10 | (4 << 8), errno: 5)).code == 74)
    #expect(try #require(reported(13, errno: 28)).code == 74)
    #expect(try #require(reported(10 | (2 << 8), errno: 5)).code == 74)
  }
}
