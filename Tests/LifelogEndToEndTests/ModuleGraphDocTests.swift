import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// scripts/module-graph.py, which `make lint` runs: docs/architecture.md's module graph and import
/// list are what Package.swift and scripts/module-imports.txt say, and a doc that has drifted from
/// them fails the check.
@Suite struct ModuleGraphDocTests {
  static let script = ImportRuleTests.repository + "/scripts/module-graph.py"

  /// A small package as `swift package dump-package` prints it: the check reads this file instead
  /// of running SwiftPM inside the test run.
  static let package = """
    {"targets": [
      {"name": "App", "type": "executable", "dependencies": [{"byName": ["Core", null]}]},
      {"name": "Core", "type": "regular", "dependencies": [{"byName": ["CShim", null]}]},
      {"name": "CShim", "type": "regular", "dependencies": []},
      {"name": "CoreTests", "type": "test", "dependencies": [{"product": ["Core", null, null]}]}
    ]}
    """

  static let imports = "# comment\nSources/Core: CShim Glibc\nSources/App: Core\n"

  /// A folder with the package dump, the import list and a doc with both blocks filled in.
  static func fixture() throws -> TemporaryDirectory {
    let folder = TemporaryDirectory(prefix: "lifelog-graph")
    try package.write(toFile: folder.file("package.json"), atomically: true, encoding: .utf8)
    try imports.write(toFile: folder.file("imports.txt"), atomically: true, encoding: .utf8)
    let blocks = try run(["print"], in: folder)
    #expect(blocks.status == 0, "\(blocks.stderr)")
    try "# Doc\n\nBefore.\n\n\(blocks.stdout)\nAfter.\n".write(
      toFile: folder.file("doc.md"), atomically: true, encoding: .utf8)
    return folder
  }

  static func run(_ arguments: [String], in folder: TemporaryDirectory) throws -> Subprocess.Output
  {
    try Subprocess.run(
      "/usr/bin/env",
      ["python3", script] + arguments + [
        "--package-json", folder.file("package.json"), "--imports", folder.file("imports.txt"),
      ])
  }

  static func check(_ folder: TemporaryDirectory) throws -> Subprocess.Output {
    try run(["check", folder.file("doc.md")], in: folder)
  }

  @Test func theGraphListsEachTargetWithWhatItDependsOn() throws {
    let folder = try Self.fixture()
    let doc = try String(contentsOfFile: folder.file("doc.md"), encoding: .utf8)
    #expect(doc.contains("App (executable) -> Core\n"))
    #expect(doc.contains("Core (library)   -> CShim\n"))
    #expect(doc.contains("CShim (C shim) -> (nothing of ours)\n"))
    #expect(doc.contains("- `Sources/Core`: CShim, Glibc\n"))
    #expect(try Self.check(folder).status == 0)
  }

  @Test(arguments: [
    ("Core (library)   -> CShim", "Core (library)   -> CShim, Gone"),
    ("- `Sources/App`: Core", "- `Sources/App`: Core, LifelogSync"),
    ("<!-- END GENERATED: graph -->", ""),
  ])
  func aDriftedDocFailsTheCheck(line: String, drifted: String) throws {
    let folder = try Self.fixture()
    let doc = try String(contentsOfFile: folder.file("doc.md"), encoding: .utf8)
    #expect(doc.contains(line))
    try doc.replacingOccurrences(of: line, with: drifted).write(
      toFile: folder.file("doc.md"), atomically: true, encoding: .utf8)
    let result = try Self.check(folder)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("module-graph"))
  }

  @Test func aDependencyAddedToThePackageFailsTheUnchangedDoc() throws {
    let folder = try Self.fixture()
    try Self.package.replacingOccurrences(
      of: #"{"name": "App", "type": "executable", "dependencies": ["#,
      with: #"{"name": "App", "type": "executable", "dependencies": [{"byName": ["CShim", null]}, "#
    ).write(toFile: folder.file("package.json"), atomically: true, encoding: .utf8)
    let result = try Self.check(folder)
    #expect(result.status == 1)
    #expect(result.stdout.contains("+App (executable) -> CShim, Core"))
    #expect(try Self.run(["write", folder.file("doc.md")], in: folder).status == 0)
    #expect(try Self.check(folder).status == 0)
  }

  /// The repository's own doc, as `make lint` checks it (SwiftPM's dump runs in a scratch folder
  /// of its own, so it does not wait on this test run's build folder).
  @Test func theRepositoryDocMatchesItsPackage() throws {
    let result = try Subprocess.run("/usr/bin/env", ["python3", Self.script, "check"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }
}
