import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// scripts/check-imports.sh, which `make lint` and `make test` run: the module graph of
/// docs/architecture.md (scripts/module-imports.txt) holds, and a forbidden import fails it.
@Suite struct ImportRuleTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  /// A copy of the repository's scripts and of `folders`, to break without touching the tree.
  static func copy(_ folders: [String]) throws -> TemporaryDirectory {
    let copy = TemporaryDirectory(prefix: "lifelog-imports")
    let files = FileManager.default
    for folder in ["scripts"] + folders {
      try files.createDirectory(
        atPath: copy.file((folder as NSString).deletingLastPathComponent),
        withIntermediateDirectories: true)
      try files.copyItem(atPath: repository + "/" + folder, toPath: copy.file(folder))
    }
    return copy
  }

  static func check(_ root: String) throws -> Subprocess.Output {
    try Subprocess.run("/bin/sh", [repository + "/scripts/check-imports.sh", root])
  }

  @Test func theRepositoryKeepsItsModuleGraph() throws {
    let result = try Self.check(Self.repository)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test(arguments: [
    "import LifelogSync", "@testable import LifelogSync", "@preconcurrency import LifelogSync",
    "@_exported import LifelogSync", "import struct LifelogSync.HTTPRemote",
    "  import LifelogCLI",
  ])
  func aServerFileThatImportsTheClientFailsTheCheck(line: String) throws {
    let copy = try Self.copy(["Sources/LifelogServer", "Sources/LifelogProtocol"])
    #expect(try Self.check(copy.path).status == 0)
    try "import LifelogProtocol\n\(line)\n".write(
      toFile: copy.file("Sources/LifelogServer/Forbidden.swift"), atomically: true,
      encoding: .utf8)
    let result = try Self.check(copy.path)
    #expect(result.status == 1)
    let module = line.contains("LifelogCLI") ? "LifelogCLI" : "LifelogSync"
    #expect(
      result.stdout.contains(
        "Sources/LifelogServer/Forbidden.swift:2: Sources/LifelogServer may not import \(module)"))
    #expect(!result.stdout.contains("import LifelogProtocol"))
  }

  /// The server and the wire format never carry the file readers of imports and exports.
  @Test(arguments: ["Sources/LifelogServer", "Sources/LifelogProtocol", "Sources/LifelogCore"])
  func aModuleBelowTheCLIThatImportsExchangeFailsTheCheck(folder: String) throws {
    let copy = try Self.copy([folder])
    #expect(try Self.check(copy.path).status == 0)
    try "import LifelogExchange\n".write(
      toFile: copy.file(folder + "/Readers.swift"), atomically: true, encoding: .utf8)
    let result = try Self.check(copy.path)
    #expect(result.status == 1)
    #expect(
      result.stdout.contains("\(folder)/Readers.swift:1: \(folder) may not import LifelogExchange"))
  }

  @Test func foundationInTheEverydayPathFailsTheCheck() throws {
    let copy = try Self.copy(["Sources/LifelogCore"])
    try "import Foundation\n".write(
      toFile: copy.file("Sources/LifelogCore/Slow.swift"), atomically: true, encoding: .utf8)
    let result = try Self.check(copy.path)
    #expect(result.status == 1 && result.stdout.contains("may not import Foundation"))
  }

  @Test func anImportInsideAMultiLineStringIsTextNotAnImport() throws {
    let copy = try Self.copy(["Sources/LifelogServer"])
    let file = copy.file("Sources/LifelogServer/Script.swift")
    let quotes = String(repeating: "\"", count: 3)
    try "let script = \(quotes)\nimport LifelogSync\nimport sys, zlib\n\(quotes)\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    #expect(try Self.check(copy.path).status == 0)
    try "let script = \(quotes)\nprint(1)\n\(quotes)\nimport LifelogSync\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let result = try Self.check(copy.path)
    #expect(result.status == 1 && result.stdout.contains("Script.swift:4:"))
  }

  @Test func aFolderOfSwiftCodeWithoutARuleFailsTheCheck() throws {
    let copy = try Self.copy([])
    try FileManager.default.createDirectory(
      atPath: copy.file("Sources/LifelogNew"), withIntermediateDirectories: true)
    try "import LifelogCore\n".write(
      toFile: copy.file("Sources/LifelogNew/New.swift"), atomically: true, encoding: .utf8)
    let result = try Self.check(copy.path)
    #expect(result.status == 1 && result.stdout.contains("Sources/LifelogNew: not in"))
  }
}
