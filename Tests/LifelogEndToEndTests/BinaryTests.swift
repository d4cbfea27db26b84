import Dispatch
import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogTestSupport
import Synchronization
import Testing

/// The built `lifelog` binary, run as a subprocess on temporary logs.
@Suite struct BinaryTests {
  let folder = TemporaryDirectory()
  var environment: [String: String] {
    [
      "LIFELOG_DB": folder.file("lifelog.db"), "TZ": "Europe/Warsaw",
      "LIFELOG_NOW": "2026-12-02T12:00:00+01:00",
    ]
  }

  @Test func aDayLoggedListedEditedAndRestoredThroughTheBinary() throws {
    let add = try LifelogProcess.run(
      ["add", "breakfast", "oatmeal, coffee", "--at", "7:30", "--format", "json"],
      environment: environment)
    #expect(add.exitCode == 0, "\(add)")
    let id = String(
      try #require(add.stdout.range(of: "\"id\":\"")).map {
        add.stdout[$0.upperBound...].prefix(36)
      } ?? "")
    #expect(
      try LifelogProcess.run(
        ["add", "walk", "--duration", "45m", "--at", "-1h"], environment: environment
      ).exitCode == 0)
    #expect(
      try LifelogProcess.run(
        ["edit", String(id.prefix(4)), "--note", "porridge"], environment: environment
      ).exitCode == 0)
    #expect(try LifelogProcess.run(["delete", id], environment: environment).exitCode == 0)
    #expect(try LifelogProcess.run(["restore", id], environment: environment).exitCode == 0)
    let list = try LifelogProcess.run(["list"], environment: environment)
    #expect(list.exitCode == 0)
    #expect(list.stdout.contains("Wed 2026-12-02 07:30  breakfast"))
    #expect(list.stdout.contains("porridge"))
    #expect(
      list.stdout.split(separator: "\n").contains { $0.contains("  walk  ") && $0.contains(" 45m") }
    )
    #expect(!list.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
  }

  @Test func theDefaultLogLivesInTheXDGDataFolderAndIsPrivate() throws {
    let home = folder.file("home")
    let result = try LifelogProcess.run(
      ["add", "snack"], environment: ["HOME": home, "TZ": "UTC"])
    #expect(result.exitCode == 0, "\(result)")
    let path = home + "/.local/share/lifelog/lifelog.db"
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600)
    let folderAttributes = try FileManager.default.attributesOfItem(
      atPath: home + "/.local/share/lifelog")
    #expect((folderAttributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o700)
    let xdg = try LifelogProcess.run(
      ["add", "snack"], environment: ["HOME": home, "XDG_DATA_HOME": folder.file("xdg")])
    #expect(xdg.exitCode == 0)
    #expect(FileManager.default.fileExists(atPath: folder.file("xdg/lifelog/lifelog.db")))
  }

  @Test func theTimeZoneComesFromTZ() throws {
    var environment = environment
    environment["TZ"] = "America/New_York"
    _ = try LifelogProcess.run(
      ["add", "lunch", "--at", "2026-07-04 12:00"], environment: environment)
    _ = try LifelogProcess.run(
      ["add", "lunch", "--at", "2026-12-01 12:00"], environment: environment)
    let json = try LifelogProcess.run(["list", "--format", "json"], environment: environment).stdout
    #expect(json.contains("\"at\":\"2026-07-04T12:00:00-04:00\""))
    #expect(json.contains("\"at\":\"2026-12-01T12:00:00-05:00\""))
  }

  @Test func anUnknownTimeZoneIsReportedNotSilentlyUsed() throws {
    var environment = environment
    environment["TZ"] = "Mars/Olympus_Mons"
    let result = try LifelogProcess.run(["add", "snack"], environment: environment)
    #expect(result.stderr.contains("Warning: TZ 'Mars/Olympus_Mons' is not a time zone"))
  }

  @Test func errorsAreOneLineWithSysexitsCodesAndNoStackTraces() throws {
    let unknownFlag = try LifelogProcess.run(["add", "snack", "--bogus"], environment: environment)
    #expect(unknownFlag.exitCode == 64)
    #expect(unknownFlag.stderr.hasPrefix("Error: Unknown option '--bogus'\n"))
    let badTime = try LifelogProcess.run(
      ["add", "snack", "--at", "2025-13-45 08:00"], environment: environment)
    #expect(badTime.exitCode == 65)
    #expect(badTime.stderr.split(separator: "\n").count == 1)
    #expect(!badTime.stderr.contains("Fatal error"))
    let notADatabase = folder.file("notes.txt")
    try "not sqlite at all, just some text that is long enough to be a header".write(
      toFile: notADatabase, atomically: true, encoding: .utf8)
    let wrongFile = try LifelogProcess.run(
      ["list", "--db", notADatabase], environment: environment)
    #expect(wrongFile.exitCode == 78, "\(wrongFile)")
    #expect(wrongFile.stderr.contains("is not a lifelog database"))
  }

  @Test func twoProcessesWritingAtOnceBothSucceed() throws {
    _ = try LifelogProcess.run(["list"], environment: environment)
    let writers = 4
    let entriesEach = 25
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: writers) { writer in
      for index in 0..<entriesEach {
        let result = try? LifelogProcess.run(
          ["add", "snack", "w\(writer)-\(index)"], environment: environment)
        if result?.exitCode != 0 {
          failures.withLock { $0.append(result?.description ?? "did not run") }
        }
      }
    }
    #expect(failures.withLock { $0 } == [])
    let store = try LogStore(path: folder.file("lifelog.db"))
    #expect(try store.entryCount() == writers * entriesEach)
  }

  @Test func aWriterWaitsOutALockHeldForSecondsInsteadOfFailing() throws {
    _ = try LifelogProcess.run(["list"], environment: environment)
    let holder = try LogStore(path: folder.file("lifelog.db"))
    try holder.database.execute(sql: "BEGIN IMMEDIATE")
    nonisolated(unsafe) let lockHolder = holder
    DispatchQueue.global().asyncAfter(deadline: .now() + 2) {
      try? lockHolder.database.execute(sql: "COMMIT")
    }
    let result = try LifelogProcess.run(["add", "snack", "patient"], environment: environment)
    #expect(result.exitCode == 0, "\(result)")
    #expect(!result.stderr.contains("locked"))
  }

  @Test func aLockHeldPastTheTimeoutIsATemporaryFailure() throws {
    _ = try LifelogProcess.run(["list"], environment: environment)
    let holder = try LogStore(path: folder.file("lifelog.db"))
    try holder.database.execute(sql: "BEGIN IMMEDIATE")
    defer { try? holder.database.execute(sql: "ROLLBACK") }
    var environment = environment
    environment["LIFELOG_BUSY_TIMEOUT_MS"] = "200"
    let result = try LifelogProcess.run(["add", "snack"], environment: environment)
    #expect(result.exitCode == 75, "\(result)")
    #expect(result.stderr.contains("try again"))
  }
}

@Suite struct EnvironmentOverrideTests {
  @Test(arguments: ["now", "yesterday 10:00", "2026-12-02T21:00:00"])
  func lifelogNowMustBeAnExactInstant(value: String) throws {
    let folder = TemporaryDirectory()
    let result = try LifelogProcess.run(
      ["add", "snack"], environment: ["LIFELOG_DB": folder.file("x.db"), "LIFELOG_NOW": value])
    #expect(result.exitCode == 78, "\(result)")
    #expect(result.stderr.contains("LIFELOG_NOW"))
  }
}
