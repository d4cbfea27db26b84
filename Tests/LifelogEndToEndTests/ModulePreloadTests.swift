import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// scripts/check-modulepreload.py, which `make lint` runs: Web/index.html's modulepreload list
/// holds every module the app imports, and a list that misses one or names a missing file fails.
@Suite struct ModulePreloadTests {
  static let script = ImportRuleTests.repository + "/scripts/check-modulepreload.py"

  /// A copy of Web/ whose index.html has gone through `edit`, checked.
  static func check(editing edit: (String) -> String) throws -> Subprocess.Output {
    let folder = TemporaryDirectory(prefix: "lifelog-preload")
    let web = folder.file("Web")
    try FileManager.default.copyItem(atPath: ImportRuleTests.repository + "/Web", toPath: web)
    let page = web + "/index.html"
    try edit(try String(contentsOfFile: page, encoding: .utf8)).write(
      toFile: page, atomically: true, encoding: .utf8)
    return try Subprocess.run("/usr/bin/env", ["python3", script, web])
  }

  @Test func theAppsListIsComplete() throws {
    let result = try Self.check { $0 }
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test func aModuleLeftOffTheListFails() throws {
    let result = try Self.check {
      $0.replacingOccurrences(
        of: "<link rel=\"modulepreload\" href=\"/core/merge.js\">\n", with: "")
    }
    #expect(result.status == 1)
    #expect(result.stderr.contains("/core/merge.js is imported but not in the modulepreload list"))
  }

  @Test func aListedFileThatIsNotThereFails() throws {
    let result = try Self.check {
      $0.replacingOccurrences(
        of: "</head>", with: "<link rel=\"modulepreload\" href=\"/core/gone.js\">\n</head>")
    }
    #expect(result.status == 1)
    #expect(result.stderr.contains("names /core/gone.js, which is not there"))
  }
}
