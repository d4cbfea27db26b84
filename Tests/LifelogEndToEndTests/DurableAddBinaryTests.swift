import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// The syncs of an `add`, seen by `strace` on the built binary: a WAL already on disk is synced
/// once at commit and its folder is not synced again; a new WAL still has its folder synced, so
/// its directory entry (and the confirmed add in it) survives a power cut.
@Suite struct DurableAddBinaryTests {
  let folder = TemporaryDirectory()
  var database: String { folder.file("lifelog.db") }

  /// The `fdatasync`/`fsync` calls of one `lifelog add`, and how many of them were of the folder.
  private func traceAdd(_ note: String) throws -> (syncs: Int, folderSyncs: Int) {
    let trace = folder.file("add-\(note).trace")
    let result = try Subprocess.run(
      "strace",
      [
        "-f", "-e", "trace=openat,fdatasync,fsync", "-o", trace, LifelogProcess.binaryPath, "add",
        "snack", note,
      ],
      environment: ["LIFELOG_DB": database, "TZ": "UTC", "PATH": "/usr/bin:/bin"])
    #expect(result.status == 0, "\(result)")
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    // `openat(AT_FDCWD, "<folder>", O_RDONLY|O_CLOEXEC) = 6` then `fdatasync(6)`.
    // SQLite names the folder without the doubled slash of the temporary folder's path.
    let folderPath = folder.path.replacingOccurrences(of: "//", with: "/")
    var folderDescriptors: Set<String> = []
    var syncs = 0
    var folderSyncs = 0
    for line in lines {
      if line.contains("openat(AT_FDCWD, \"\(folderPath)\","), let equals = line.range(of: "= ") {
        folderDescriptors.insert(String(line[equals.upperBound...]))
      }
      for call in ["fdatasync(", "fsync("] {
        guard let start = line.range(of: call) else { continue }
        syncs += 1
        let descriptor = line[start.upperBound...].prefix { $0 != ")" }
        if folderDescriptors.contains(String(descriptor)) { folderSyncs += 1 }
      }
    }
    return (syncs, folderSyncs)
  }

  @Test func anAddToAWALOnDiskMakesOneSyncAndANewWALSyncsItsFolder() throws {
    let first = try traceAdd("first")
    #expect(first.folderSyncs >= 1, "the new WAL's folder was not synced: \(first)")
    for note in ["second", "third"] {
      let later = try traceAdd(note)
      #expect(later.syncs == 1 && later.folderSyncs == 0, "\(note): \(later)")
    }
    let listed = try LifelogProcess.run(
      ["list", "--format", "json"], environment: ["LIFELOG_DB": database, "TZ": "UTC"])
    for note in ["first", "second", "third"] { #expect(listed.stdout.contains("\"\(note)\"")) }
  }
}
