import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog import` and `export` through the built binary: standard input, pipes, exit codes.
@Suite struct ImportExportBinaryTests {
  let folder = TemporaryDirectory()

  func environment(_ name: String) -> [String: String] {
    [
      "LIFELOG_DB": folder.file(name), "TZ": "Europe/Warsaw",
      "LIFELOG_NOW": "2026-12-02T12:00:00+01:00",
    ]
  }

  @Test func anExportPipedIntoImportOnAnotherLogRoundTrips() throws {
    let csv =
      "at,activity,note,tags\r\n2026-12-01 08:00,breakfast,\"oats, \"\"steel cut\"\"\",home\r\n"
      + "2026-12-01 19:30,dinner,\"soup\nand bread\",\r\n"
    let imported = try LifelogProcess.run(
      ["import", "-"], environment: environment("a.db"), input: csv)
    #expect(imported.exitCode == 0, "\(imported)")
    #expect(imported.stdout.hasPrefix("Imported: 2 added"))
    #expect(imported.stderr.isEmpty, "no progress line when stderr is not a terminal")
    let export = try LifelogProcess.run(
      ["export", "--format", "jsonl"], environment: environment("a.db"))
    let again = try LifelogProcess.run(
      ["import"], environment: environment("b.db"), input: export.stdout)
    #expect(again.exitCode == 0, "\(again)")
    let second = try LifelogProcess.run(
      ["export", "--format", "jsonl"], environment: environment("b.db"))
    #expect(second.stdout == export.stdout)
    #expect(export.stdout.contains("\"source\":\"stdin\""))
  }

  @Test func invalidRowsExit65AndAMissingFileExits66() throws {
    let bad = try LifelogProcess.run(
      ["import", "-"], environment: environment("a.db"), input: "at,activity\nnever,snack\n")
    #expect(bad.exitCode == 65)
    #expect(bad.stderr.contains("line 2: Cannot read time 'never'"))
    let missing = try LifelogProcess.run(
      ["import", folder.file("none.csv")], environment: environment("a.db"))
    #expect(missing.exitCode == 66)
    #expect(missing.stderr.contains("no such file"))
  }
}
