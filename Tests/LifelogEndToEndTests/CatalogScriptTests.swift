import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// scripts/catalogs.sh, which `make catalogs` and `make lint` run: msgfmt's warnings are shown,
/// never written into the generated Swift, where a second line of comment text broke the build.
@Suite struct CatalogScriptTests {
  /// A copy of the script, po/ and the generated file, to break without touching the tree.
  static func copy() throws -> TemporaryDirectory {
    let folder = TemporaryDirectory(prefix: "lifelog-catalogs")
    let repository = ImportRuleTests.repository
    let localization = "Sources/LifelogCore/Localization"
    for path in ["scripts", "po", localization] {
      try FileManager.default.createDirectory(
        atPath: folder.file(path), withIntermediateDirectories: true)
    }
    for path in ["scripts/catalogs.sh", localization + "/EmbeddedCatalogs.swift"] {
      try FileManager.default.copyItem(
        atPath: repository + "/" + path, toPath: folder.file(path))
    }
    for name in try FileManager.default.contentsOfDirectory(atPath: repository + "/po") {
      try FileManager.default.copyItem(
        atPath: repository + "/po/" + name, toPath: folder.file("po/" + name))
    }
    return folder
  }

  @Test func aMsgfmtWarningIsShownAndKeptOutOfTheSwift() throws {
    try #require(Subprocess.exists("msgfmt"), "msgfmt is needed (make deps installs gettext)")
    let folder = try Self.copy()
    // A catalog without its Language header: msgfmt compiles it, with a warning.
    let catalog = folder.file("po/pl.po")
    let text = try String(contentsOfFile: catalog, encoding: .utf8)
    try text.replacingOccurrences(of: "\"Language: pl\\n\"\n", with: "").write(
      toFile: catalog, atomically: true, encoding: .utf8)
    let result = try Subprocess.run("/bin/sh", [folder.file("scripts/catalogs.sh")])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("warning: header field 'Language' missing"), "\(result.stderr)")
    let swift = try String(
      contentsOfFile: folder.file("Sources/LifelogCore/Localization/EmbeddedCatalogs.swift"),
      encoding: .utf8)
    let comment = try #require(swift.split(separator: "\n").first { $0.contains("compiled (") })
    #expect(comment.hasSuffix("translated messages)."), "\(comment)")
    #expect(!swift.contains("warning"))
  }
}
