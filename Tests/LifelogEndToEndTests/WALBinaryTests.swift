import Foundation
import LifelogCore
import LifelogTestSupport
import Testing

/// The log's WAL through the built binary: kept from one command to the next (so `add` costs one
/// `fdatasync`, not five), every commit in it read back by the next command, `check` clean.
@Suite struct WALBinaryTests {
  let folder = TemporaryDirectory()
  var database: String { folder.file("lifelog.db") }
  var environment: [String: String] {
    ["LIFELOG_DB": database, "TZ": "UTC", "LIFELOG_NOW": "2026-12-02T12:00:00Z"]
  }

  private func run(_ arguments: String...) throws -> String {
    let result = try LifelogProcess.run(arguments, environment: environment)
    #expect(result.exitCode == 0, "\(result)")
    return result.stdout
  }

  private func size(_ path: String) -> Int {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return (attributes?[.size] as? NSNumber)?.intValue ?? -1
  }

  @Test func theWALSurvivesBetweenCommandsAndEveryAddIsReadBack() throws {
    // Creating the log (every migration) fills much of a WAL; the adds start from an empty one,
    // so what is measured does not depend on how many migrations there are.
    _ = try run("status")
    try LogStore(path: database).database.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    var sizes: [Int] = []
    for minute in 0..<5 {
      let added = try run("add", "snack", "apple \(minute)", "--at", "2026-12-02 10:0\(minute)")
      #expect(added.hasPrefix("Added "), "\(added)")
      #expect(size(database + "-wal") > 0, "the WAL was removed after add \(minute)")
      #expect(FileManager.default.fileExists(atPath: database + "-shm"))
      sizes.append(size(database + "-wal"))
    }
    // Each add appends its commit to the kept WAL (below the 512 KiB that empties it).
    #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 < $1 }, "\(sizes)")
    let walBeforeReading = try Data(contentsOf: URL(fileURLWithPath: database + "-wal"))
    let listed = try run("list", "--format", "json")
    for minute in 0..<5 {
      #expect(listed.contains("\"note\":\"apple \(minute)\""), "\(listed)")
    }
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: database + "-wal")) == walBeforeReading,
      "list wrote to the WAL")
    let check = try run("check")
    #expect(check.hasPrefix("No damage found: checked 5 entries"), "\(check)")
    // A later writer (an edit, a delete) and a fresh reader agree with what was written.
    let id = try #require(listed.range(of: "\"id\":\"")).upperBound
    let first = String(listed[id...].prefix(8))
    _ = try run("edit", first, "--note", "pear")
    _ = try run("delete", "last")
    let after = try run("list", "--format", "json")
    #expect(after.contains("\"note\":\"pear\""), "\(after)")
    #expect(after.components(separatedBy: "\"id\":").count - 1 == 4, "\(after)")
    #expect(try run("check").hasPrefix("No damage found: checked "))
  }

  @Test func aBulkImportLeavesAnEmptiedWALAndTheLogFileHoldsEverything() throws {
    var csv = "activity,at,note\n"
    for index in 0..<6_000 {
      csv +=
        "snack,2026-11-\(10 + index % 20)T\(10 + index % 10):\(10 + index % 50):00Z,"
        + "bulk entry number \(index) with a note\n"
    }
    let file = folder.file("bulk.csv")
    try csv.write(toFile: file, atomically: true, encoding: .utf8)
    let imported = try LifelogProcess.run(["import", file], environment: environment)
    #expect(imported.exitCode == 0, "\(imported)")
    // Past 512 KiB, the closing command copied the WAL into the log file and emptied it.
    #expect(size(database + "-wal") == 0)
    let copy = folder.file("the-file-alone.db")
    try FileManager.default.copyItem(atPath: database, toPath: copy)
    let count = try LogStore(path: copy).entryCount()
    #expect(count == 6_000)
    #expect(try run("check").hasPrefix("No damage found: checked 6,000 entries"))
  }
}
